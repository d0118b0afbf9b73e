export { createKoaRoutes, type KoaRoutes, type KoaRoutesOptions } from './create-koa-routes.js';
export { createKoaWebhook } from './create-koa-webhook.js';
