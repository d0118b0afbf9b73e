export {
  createExpressRoutes,
  type ExpressRoutes,
  type ExpressRoutesOptions,
} from './create-express-routes.js';
export { createExpressWebhook, type ExpressWebhookOptions } from './create-express-webhook.js';
