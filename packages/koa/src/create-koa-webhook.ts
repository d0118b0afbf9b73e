import { runNodeWebhook } from '@dcbkit/core/node';
import type { WebhookHandler } from '@dcbkit/core/web';
import type { Context, Middleware } from 'koa';
import { writeAnswer } from './write-answer.js';

const MOUNTING_HINT =
  'Mount the webhook route before your body parser, or use @koa/bodyparser, which keeps ctx.request.rawBody.';

/**
 * The service's webhooks as Koa middleware, over core's handler. Works with or without a body
 * parser: it uses `ctx.request.rawBody` (koa-bodyparser, @koa/bodyparser) when present, reads
 * the stream otherwise, and answers 500 at once with a one-line fix when the bytes are gone.
 *
 * @example
 * router.post('/webhooks/dcb', createKoaWebhook(kit.webhook));
 */
export function createKoaWebhook(handler: WebhookHandler): Middleware {
  return async (ctx: Context) => {
    const kept = (ctx.request as { rawBody?: unknown }).rawBody;
    writeAnswer(ctx, await runNodeWebhook(handler, { req: ctx.req, kept, mountingHint: MOUNTING_HINT }));
  };
}
