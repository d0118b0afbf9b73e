import { keptBytesOf, runNodeWebhook } from '@dcbkit/core/node';
import type { WebhookHandler } from '@dcbkit/core/web';
import type { RequestHandler } from 'express';
import { writeAnswer } from './write-answer.js';

const MOUNTING_HINT =
  'Mount the webhook route before express.json(), or keep the bytes with ' +
  'express.json({ verify: (req, _res, buf) => { req.rawBody = buf } }).';

/**
 * The service's webhooks as Express middleware, over core's handler. Works with or without a
 * global body parser: it uses `req.rawBody` or a Buffer `req.body` (express.raw) when present,
 * reads the stream otherwise, and answers 500 at once with a one-line fix when the bytes are gone.
 *
 * @example
 * app.post('/webhooks/dcb', createExpressWebhook(kit.webhook));
 */
export function createExpressWebhook(handler: WebhookHandler): RequestHandler {
  return (req, res, next) => {
    runNodeWebhook(handler, { req, kept: keptBytesOf(req), mountingHint: MOUNTING_HINT })
      .then((answer) => writeAnswer(res, answer))
      .catch(next);
  };
}
