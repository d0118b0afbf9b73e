export { createHonoRoutes, type HonoRoutes, type HonoRoutesOptions } from './create-hono-routes.js';
export { createHonoWebhook } from './create-hono-webhook.js';
