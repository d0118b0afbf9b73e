import { createExpressRoutes, createExpressWebhook } from '@dcbkit/express';
import express, { type ErrorRequestHandler } from 'express';
import helmet from 'helmet';
import { WEBHOOK_PATH } from '../../billing.js';
import { logRequest } from '../../request-log.js';
import { assembleShop, type CreateShopApp, FORM_LIMIT_BYTES } from '../../shop-parts.js';
import { shopRequestOf, shopRouter, writeAnswer } from './exchange.js';
import { sessionMiddleware } from './session.js';

/**
 * The shop on Express 5: every page and route of src/shop-parts.ts, mounted in its order, over a
 * running billing environment. The only file that wires Express; the pages know no framework.
 */
export const createShopApp: CreateShopApp = (options) => {
  const shop = assembleShop(options);
  const { kit } = shop;

  const app = express();
  app.disable('x-powered-by');
  // Behind a proxy that terminates TLS, req.secure (and so the Secure cookie) needs this.
  if (options.trustProxy > 0) app.set('trust proxy', options.trustProxy);

  app.use(shopRouter(shop.probes));
  app.use((req, res, next) => {
    logRequest(options.logger, req, res);
    next();
  });
  // The webhook reads the raw body to check its signature: it goes before any body parser.
  app.post(WEBHOOK_PATH, createExpressWebhook(kit.webhook));

  app.use(helmet(shop.securityHeaders));
  app.use(shopRouter(shop.assets));
  app.use(sessionMiddleware(shop.session));
  // Forms only (no JSON): the pages post nothing else.
  app.use(express.urlencoded({ extended: false, limit: FORM_LIMIT_BYTES }));

  const hooks = shop.kitHooks;
  const dcb = createExpressRoutes({
    routes: kit.routes,
    signedInAccount: (req) => hooks.signedInAccount(shopRequestOf(req)),
    sessionId: (req) => hooks.sessionId(shopRequestOf(req)),
    render: (view, req, res) => writeAnswer(res, hooks.render(view, shopRequestOf(req))),
    renderError: (error, req, res) => writeAnswer(res, hooks.renderError(error, shopRequestOf(req))),
    offersPage: hooks.offersPage,
  });
  app.use(shopRouter(shop.pages, dcb));

  app.use((req, res) => writeAnswer(res, shop.notFound(shopRequestOf(req))));
  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    const answer = shop.failed(shopRequestOf(req), error);
    if (!res.headersSent) writeAnswer(res, answer);
  };
  app.use(onError);
  return app;
};
