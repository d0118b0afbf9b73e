export {
  createFastifyRoutes,
  type FastifyAccessGate,
  type FastifyRoutes,
  type FastifyRoutesOptions,
} from './create-fastify-routes.js';
export { createFastifyWebhook } from './create-fastify-webhook.js';
export { type FastifyDcbkitOptions, fastifyDcbkit } from './fastify-dcbkit.js';
export type { FastifyRouteHandler } from './fastify-route-handler.js';
