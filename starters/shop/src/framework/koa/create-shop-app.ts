import { createKoaRoutes, createKoaWebhook } from '@dcbkit/koa';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import helmet from 'koa-helmet';
import { WEBHOOK_PATH } from '../../billing.js';
import { logRequest } from '../../request-log.js';
import { assembleShop, type CreateShopApp, FORM_LIMIT_BYTES } from '../../shop-parts.js';
import { shopRequestOf, shopRouter, writeAnswer } from './exchange.js';
import { sessionMiddleware } from './session.js';

/**
 * The shop on Koa 3: every page and route of src/shop-parts.ts, mounted in its order, over a
 * running billing environment. The only file that wires Koa; the pages know no framework.
 */
export const createShopApp: CreateShopApp = (options) => {
  const shop = assembleShop(options);
  const { kit } = shop;

  const app = new Koa();
  // Behind a proxy that terminates TLS, ctx.secure (and so the Secure cookie) needs this.
  if (options.trustProxy > 0) {
    app.proxy = true;
    app.maxIpsCount = options.trustProxy;
  }
  // Errors the handler below cannot catch (a broken socket, say) go to the log, not to stderr.
  app.on('error', (error: unknown) => options.logger.error({ err: error }, 'request failed'));

  app.use(shopRouter(shop.probes));
  app.use((ctx, next) => {
    logRequest(options.logger, ctx.req, ctx.res);
    return next();
  });
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const answer = shop.failed(shopRequestOf(ctx), error);
      if (!ctx.headerSent) writeAnswer(ctx, answer);
    }
  });
  // The webhook reads the raw body to check its signature: it goes before the body parser.
  const webhook = new Router();
  webhook.post(WEBHOOK_PATH, createKoaWebhook(kit.webhook));
  app.use(webhook.routes());

  app.use(helmet(shop.securityHeaders));
  app.use(shopRouter(shop.assets));
  app.use(sessionMiddleware(app, shop.session));
  // Forms only (no JSON): the pages post nothing else.
  app.use(bodyParser({ enableTypes: ['form'], formLimit: `${FORM_LIMIT_BYTES}b` }));

  const hooks = shop.kitHooks;
  const dcb = createKoaRoutes({
    routes: kit.routes,
    signedInAccount: (ctx) => hooks.signedInAccount(shopRequestOf(ctx)),
    sessionId: (ctx) => hooks.sessionId(shopRequestOf(ctx)),
    render: (view, ctx) => writeAnswer(ctx, hooks.render(view, shopRequestOf(ctx))),
    renderError: (error, ctx) => writeAnswer(ctx, hooks.renderError(error, shopRequestOf(ctx))),
    offersPage: hooks.offersPage,
  });
  app.use(shopRouter(shop.pages, dcb));

  // No route answered.
  app.use((ctx) => writeAnswer(ctx, shop.notFound(shopRequestOf(ctx))));
  return app.callback();
};
