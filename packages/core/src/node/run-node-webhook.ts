import type { IncomingMessage } from 'node:http';
import { isDcbError } from '../errors/dcb-error.js';
import type { HttpAnswer } from '../http/http-answer.js';
import { answerForBodyError } from '../webhooks/body-refusal.js';
import type { WebhookHandler } from '../webhooks/create-webhook-handler.js';
import { getRawBody } from './read-raw-body.js';

export interface NodeWebhookRequest {
  req: IncomingMessage;
  /** Bytes a body parser already read and kept (`req.rawBody`, `ctx.request.rawBody`). */
  kept?: unknown;
  /** One sentence telling the partner how to mount the route when the raw body is gone. */
  mountingHint: string;
}

/**
 * Runs the webhook handler on a Node request, whatever the framework: takes the raw bytes (kept
 * by a parser, or read here), hands them over with the headers, and returns what to answer. When a
 * body parser consumed the stream and kept nothing it answers 500 at once, never hangs and never
 * re-serialises, and reports one error saying how to fix the mounting.
 */
export async function runNodeWebhook(
  handler: WebhookHandler,
  request: NodeWebhookRequest,
): Promise<HttpAnswer> {
  const { req } = request;
  let rawBody: Buffer;
  try {
    rawBody = await getRawBody({
      req,
      kept: request.kept,
      maxBytes: handler.maxBodyBytes,
      timeoutMs: handler.bodyTimeoutMs,
    });
  } catch (error) {
    const answer = answerForBodyError(handler, error, request.mountingHint);
    // The sender is too slow to wait for: close the connection once the answer is out (a Node
    // server's socket is this adapter's to manage; a fetch runtime manages its own).
    if (isDcbError(error, 'body_timeout')) answer.headers.connection = 'close';
    return answer;
  }
  return handler({ rawBody, headers: req.headers });
}
