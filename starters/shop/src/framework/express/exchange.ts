import type { ExpressRoutes } from '@dcbkit/express';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { ShopAnswer } from '../../web/shop-answer.js';
import type { ShopRequest } from '../../web/shop-request.js';
import type { Handler, ShopRoute } from '../../web/shop-route.js';
import { sessionHandleOf } from './session.js';

/** What the shop's pages read, from Express's request. */
export function shopRequestOf(req: Request): ShopRequest {
  return {
    method: req.method,
    url: req.originalUrl,
    query: req.query,
    // A wildcard's value is a list of segments; the shop's pages name single segments only.
    params: Object.fromEntries(
      Object.entries(req.params).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join('/') : value,
      ]),
    ),
    // express.urlencoded fills req.body for forms; anything else leaves it undefined.
    form: typeof req.body === 'object' && req.body !== null ? req.body : {},
    header: (name) => req.get(name),
    session: sessionHandleOf(req),
  };
}

/** Sends the shop's answer with Express's response. */
export function writeAnswer(res: Response, answer: ShopAnswer): void {
  switch (answer.kind) {
    case 'page':
      res.status(answer.status).set(answer.headers).type('html').send(answer.html);
      return;
    case 'redirect':
      res.redirect(answer.status, answer.location);
      return;
    case 'text':
      res.status(answer.status).type('text').send(answer.text);
      return;
    case 'json':
      res.status(answer.status).set(answer.headers).json(answer.body);
      return;
    case 'file':
      res.status(200).set(answer.headers).type(answer.type).send(answer.body);
      return;
  }
}

/** A shop handler as Express middleware: its answer is sent, or (undefined) the request goes on. */
export function expressHandler(handler: Handler): RequestHandler {
  return (req, res, next) => {
    Promise.resolve(handler(shopRequestOf(req)))
      .then((answer) => (answer === undefined ? next() : writeAnswer(res, answer)))
      .catch(next);
  };
}

/**
 * The shop's routes on an Express router, in order: each route's guards, the kit's access gate,
 * then the shop's page or the kit's route run by the adapter (`dcb`).
 */
export function shopRouter(routes: readonly ShopRoute[], dcb?: ExpressRoutes): Router {
  const router = Router();
  const adapter = (): ExpressRoutes => {
    if (dcb === undefined) throw new Error('a kit route needs the adapter: pass createExpressRoutes(…)');
    return dcb;
  };
  for (const route of routes) {
    const chain = (route.guards ?? []).map(expressHandler);
    if (route.requiresAccessTo !== undefined) chain.push(adapter().requireAccess(route.requiresAccessTo));
    chain.push(typeof route.handle === 'string' ? adapter()[route.handle]() : expressHandler(route.handle));
    const verb = route.method === 'ALL' ? 'all' : route.method === 'POST' ? 'post' : 'get';
    router.route(route.path)[verb](chain);
  }
  return router;
}
