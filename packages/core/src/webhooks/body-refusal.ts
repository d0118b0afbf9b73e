import { isDcbError } from '../errors/dcb-error.js';
import type { HttpAnswer } from '../http/http-answer.js';
import type { WebhookHandler } from './create-webhook-handler.js';

/**
 * The handler's answer to a webhook body an adapter could not read, whichever reader failed
 * (node/read-raw-body.ts, web/read-request-body.ts): 413, 408 or 400, counted in the handler's
 * health; for a body something else read first, 500 at once with one error in the log saying how to
 * fix the mounting (`mountingHint`), never a re-serialised body. Any other error is thrown on.
 */
export function answerForBodyError(
  handler: WebhookHandler,
  error: unknown,
  mountingHint: string,
): HttpAnswer {
  if (isDcbError(error, 'body_too_large')) return handler.refuseBody('body_too_large');
  if (isDcbError(error, 'body_timeout')) return handler.refuseBody('body_timeout');
  if (isDcbError(error, 'body_incomplete')) return handler.refuseBody('body_incomplete');
  if (!isDcbError(error, 'body_consumed')) throw error;
  handler.reportError(
    error,
    { source: 'webhook' },
    `dcbkit: the webhook's raw body is gone: a body parser read it first. ${mountingHint}`,
  );
  return handler.refuseBody('body_not_raw');
}
