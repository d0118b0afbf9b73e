import type { IncomingMessage } from 'node:http';
import type { WebhookHandler } from '../entitlements/handler/create-webhook-handler.js';
import type { WebhookLogger } from '../entitlements/handler/logger.js';
import { refused, type WebhookResponse } from '../entitlements/handler/webhook-response.js';
import { RawBodyError } from './raw-body-error.js';
import { getRawBody } from './read-raw-body.js';

export interface NodeWebhookRequest {
  req: IncomingMessage;
  /** Bytes a body parser already read and kept (`req.rawBody`, `ctx.request.rawBody`). */
  kept?: unknown;
  /** Default: the handler's own limit. */
  maxBodyBytes?: number;
  logger?: Pick<WebhookLogger, 'error' | 'warn'>;
  /** One sentence telling the partner how to mount the route when the raw body is gone. */
  mountingHint: string;
}

/**
 * Runs the webhook handler on a Node request, whatever the framework: takes the raw bytes (kept
 * by a parser, or read here), hands them over with the headers, and returns what to answer. When a
 * body parser consumed the stream and kept nothing it answers 500 at once, never hangs and never
 * re-serialises, and logs one line saying how to fix the mounting.
 */
export async function handleNodeWebhook(
  handler: WebhookHandler,
  request: NodeWebhookRequest,
): Promise<WebhookResponse> {
  const { req, logger = console } = request;
  let rawBody: Buffer;
  try {
    rawBody = await getRawBody({
      req,
      kept: request.kept,
      maxBytes: request.maxBodyBytes ?? handler.maxBodyBytes,
    });
  } catch (error) {
    if (!(error instanceof RawBodyError)) throw error;
    if (error.reason === 'too_large') return refused(413, 'body_too_large');
    if (error.reason === 'aborted') return refused(400, 'body_incomplete');
    logger.error(
      `dcbkit: the webhook's raw body is gone: a body parser read it first. ${request.mountingHint}`,
    );
    return refused(500, 'body_not_raw');
  }
  return handler({ rawBody, headers: req.headers });
}
