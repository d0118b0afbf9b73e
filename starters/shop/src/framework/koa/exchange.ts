import type { KoaRoutes } from '@dcbkit/koa';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { ShopAnswer } from '../../web/shop-answer.js';
import type { ShopRequest } from '../../web/shop-request.js';
import type { Handler, ShopRoute } from '../../web/shop-route.js';
import { sessionHandleOf } from './session.js';

/** What the shop's pages read, from Koa's context. */
export function shopRequestOf(ctx: Context): ShopRequest {
  // @koa/router sets ctx.params on a matched route; @koa/bodyparser fills ctx.request.body for forms.
  const { params } = ctx as Context & { params?: Record<string, string> };
  const { body } = ctx.request as { body?: unknown };
  return {
    method: ctx.method,
    url: ctx.originalUrl,
    query: ctx.query,
    params: params ?? {},
    form: typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {},
    // ctx.get answers '' for a missing header; the shop's checks need undefined for "not sent".
    header: (name) => ctx.get(name) || undefined,
    session: sessionHandleOf(ctx),
  };
}

/** Sends the shop's answer with Koa's context. */
export function writeAnswer(ctx: Context, answer: ShopAnswer): void {
  switch (answer.kind) {
    case 'page':
      ctx.status = answer.status;
      ctx.set(answer.headers);
      ctx.type = 'html';
      ctx.body = answer.html;
      return;
    case 'redirect':
      // Set first: Koa's ctx.redirect keeps a redirect status and answers 302 otherwise.
      ctx.status = answer.status;
      ctx.redirect(answer.location);
      return;
    case 'text':
      ctx.status = answer.status;
      ctx.type = 'text';
      ctx.body = answer.text;
      return;
    case 'json':
      ctx.status = answer.status;
      ctx.set(answer.headers);
      ctx.body = answer.body;
      return;
    case 'file':
      ctx.set(answer.headers);
      ctx.type = answer.type;
      ctx.body = answer.body;
      return;
  }
}

/** A shop handler as Koa middleware: its answer is sent, or (undefined) the request goes on. */
export function koaHandler(handler: Handler): Middleware {
  return async (ctx, next) => {
    const answer = await handler(shopRequestOf(ctx));
    if (answer === undefined) return next();
    writeAnswer(ctx, answer);
  };
}

/**
 * The shop's routes as Koa middleware, in order: each route's guards, the kit's access gate, then
 * the shop's page or the kit's route run by the adapter (`dcb`).
 */
export function shopRouter(routes: readonly ShopRoute[], dcb?: KoaRoutes) {
  const router = new Router();
  const adapter = (): KoaRoutes => {
    if (dcb === undefined) throw new Error('a kit route needs the adapter: pass createKoaRoutes(…)');
    return dcb;
  };
  for (const route of routes) {
    const chain = (route.guards ?? []).map(koaHandler);
    if (route.requiresAccessTo !== undefined) chain.push(adapter().requireAccess(route.requiresAccessTo));
    chain.push(typeof route.handle === 'string' ? adapter()[route.handle]() : koaHandler(route.handle));
    const verb = route.method === 'ALL' ? 'all' : route.method === 'POST' ? 'post' : 'get';
    router[verb](route.path, ...chain);
  }
  return router.routes();
}
