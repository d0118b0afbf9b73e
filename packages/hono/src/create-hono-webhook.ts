import { runFetchWebhook, type WebhookHandler } from '@dcbkit/core/web';
import type { Env, Handler } from 'hono';
import { keptBodyOf } from './hono-body.js';

const MOUNTING_HINT =
  'Mount the webhook before any middleware that reads the body from c.req.raw, or read it through ' +
  'Hono (c.req.json(), c.req.text(), c.req.arrayBuffer()), which keeps the bytes for the webhook.';

/**
 * The service's webhooks as a Hono handler, over core's handler, on any runtime Hono runs on (the
 * signature is checked on Web Crypto where node's crypto is absent). It reads the body's exact
 * bytes itself, or takes the ones Hono cached when a middleware read the body through `c.req`;
 * when something read `c.req.raw` and kept nothing, it answers 500 at once with a one-line fix.
 *
 * @example
 * app.post('/webhooks/dcb', createHonoWebhook(kit.webhook));
 */
export function createHonoWebhook<E extends Env = Env>(handler: WebhookHandler): Handler<E> {
  return async (c) =>
    runFetchWebhook(handler, c.req.raw, { kept: await keptBodyOf(c.req), mountingHint: MOUNTING_HINT });
}
