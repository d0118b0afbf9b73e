import { keptBytesOf, runNodeWebhook } from '@dcbkit/core/node';
import type { WebhookHandler } from '@dcbkit/core/web';
import type { FastifyRouteHandler } from './fastify-route-handler.js';
import { writeAnswer } from './write-answer.js';

const MOUNTING_HINT =
  'Register the webhook with fastifyDcbkit, whose scope leaves the body to dcbkit, or keep the bytes ' +
  'as request.rawBody (fastify-raw-body) in the scope of this route.';

/**
 * The service's webhooks as a Fastify route handler, over core's handler. `fastifyDcbkit` mounts
 * it in a scope whose parsers leave the body unread; mounted elsewhere it uses the bytes a parser
 * kept (`request.rawBody` from fastify-raw-body, or a Buffer `request.body`), reads the stream
 * when no parser ran, and answers 500 at once with a one-line fix when a parser consumed it.
 *
 * @example
 * await app.register(fastifyRawBody, { global: false });
 * app.post('/webhooks/dcb', { config: { rawBody: true } }, createFastifyWebhook(kit.webhook));
 */
export function createFastifyWebhook(handler: WebhookHandler): FastifyRouteHandler {
  return async (request, reply) =>
    writeAnswer(
      reply,
      await runNodeWebhook(handler, {
        req: request.raw,
        kept: keptBytesOf(request),
        mountingHint: MOUNTING_HINT,
      }),
    );
}
