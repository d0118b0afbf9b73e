export { createKoaRoutes, type KoaRoutes, type KoaRoutesOptions } from './create-koa-routes.js';
export { createKoaWebhook, type KoaWebhookOptions } from './create-koa-webhook.js';
