export {
  createExpressRoutes,
  type ExpressRoutes,
  type ExpressRoutesOptions,
} from './create-express-routes.js';
export { createExpressWebhook } from './create-express-webhook.js';
