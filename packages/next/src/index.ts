export {
  createNextHandlers,
  type NextHandlers,
  type NextHandlersOptions,
  type NextKit,
} from './create-next-handlers.js';
export { createNextWebhook } from './create-next-webhook.js';
export type { NextRouteContext, NextRouteHandler } from './next-route.js';
