import { handleNodeWebhook, type NodeWebhookRequest, type WebhookHandler } from '@dcbkit/core';
import type { Context, Middleware } from 'koa';
import { writeAnswer } from './write-answer.js';

export interface KoaWebhookOptions {
  /** Larger bodies are answered 413. Default 1 MiB. */
  maxBodyBytes?: number;
  logger?: NodeWebhookRequest['logger'];
}

const MOUNTING_HINT =
  'Mount the webhook route before your body parser, or use @koa/bodyparser, which keeps ctx.request.rawBody.';

/**
 * The service's webhooks as Koa middleware, over core's handler. Works with or without a body
 * parser: it uses `ctx.request.rawBody` (koa-bodyparser, @koa/bodyparser) when present, reads
 * the stream otherwise, and answers 500 at once with a one-line fix when the bytes are gone.
 *
 * @example
 * router.post('/webhooks/dcb', createKoaWebhook(createWebhookHandler({ secrets, store, ledger, offers })));
 */
export function createKoaWebhook(handler: WebhookHandler, options: KoaWebhookOptions = {}): Middleware {
  return async (ctx: Context) => {
    const kept = (ctx.request as { rawBody?: unknown }).rawBody;
    writeAnswer(
      ctx,
      await handleNodeWebhook(handler, { req: ctx.req, kept, mountingHint: MOUNTING_HINT, ...options }),
    );
  };
}
