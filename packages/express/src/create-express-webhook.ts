import type { WebhookHandler } from '@dcbkit/core';
import { runNodeWebhook } from '@dcbkit/core/node';
import type { Request, RequestHandler } from 'express';
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
    runNodeWebhook(handler, { req, kept: keptBytes(req), mountingHint: MOUNTING_HINT })
      .then((answer) => writeAnswer(res, answer))
      .catch(next);
  };
}

function keptBytes(req: Request): unknown {
  const { rawBody } = req as Request & { rawBody?: unknown };
  if (rawBody !== undefined) return rawBody;
  return Buffer.isBuffer(req.body) || typeof req.body === 'string' ? req.body : undefined;
}
