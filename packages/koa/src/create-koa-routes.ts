import type { DcbError, DcbErrorCode, RouteView } from '@dcbkit/core';
import { runPartnerRoute } from '@dcbkit/core/node';
import {
  checkRouteHandlerOptions,
  gateAnswer,
  type PartnerRouteHandlers,
  type PartnerRoutes,
  partnerRouteHandlers,
} from '@dcbkit/core/web';
import type { Context, Middleware, Next } from 'koa';
import { writeAnswer } from './write-answer.js';

export interface KoaRoutesOptions {
  routes: PartnerRoutes;
  /** The signed-in account of a request (your session's user id), or undefined. */
  signedInAccount: (ctx: Context) => string | undefined | Promise<string | undefined>;
  /**
   * The id of the browser's session, when your app has one (express-session's `req.sessionID`, or
   * a random value you keep in the session at sign-in): form tokens are then bound to the session
   * as well as the account, so one copied from another session is refused. Pass the same id to
   * `routes.formToken(accountKey, sessionId)`.
   */
  sessionId?: (ctx: Context) => string | undefined;
  /** Render a view yourself (HTML pages); default: the view as JSON. */
  render?: (view: RouteView, ctx: Context) => void | Promise<void>;
  /**
   * Render a refusal yourself (an HTML error page): `error.code` says which, `error.httpStatus`
   * what to answer, `error.message` a sentence for the browser. Default: small JSON.
   */
  renderError?: (error: DcbError<DcbErrorCode<'route'>>, ctx: Context) => void | Promise<void>;
  /** Where requireAccess sends someone without access; default: answer 403. */
  offersPage?: string;
}

/** The route handlers, each ready to mount. */
export type KoaRoutes = PartnerRouteHandlers<Middleware, KoaRoutesOptions['signedInAccount']>;

/**
 * Checkout, return, subscription cancel/resume and the access gate as Koa middleware (for
 * @koa/router). Every decision is core's (createPartnerRoutes); these only collect fields and
 * write answers.
 *
 * @example
 * const dcb = createKoaRoutes({ routes, signedInAccount: (ctx) => ctx.state.user?.id });
 * router.post('/checkout', dcb.checkout());
 * router.get('/return', dcb.returnPage());
 * router.post('/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription());
 * router.get('/premium', dcb.requireAccess('premium'), showPremium);
 */
export function createKoaRoutes(options: KoaRoutesOptions): KoaRoutes {
  checkRouteHandlerOptions('createKoaRoutes', options);
  const { routes, render, renderError } = options;
  return partnerRouteHandlers(routes, options, {
    handle: (action) => async (ctx: Context) => {
      const params = (ctx as Context & { params?: Record<string, string> }).params;
      const parsedBody = (ctx.request as { body?: unknown }).body;
      const sources = { req: ctx.req, query: ctx.query, parsedBody, params };
      const session = options.sessionId?.(ctx);
      const { answer, view, refusal, refusalHeaders } = await runPartnerRoute(
        action,
        options.signedInAccount(ctx),
        { ...sources, session },
      );
      if (view && render) await render(view, ctx);
      else if (refusal && renderError) {
        ctx.set(refusalHeaders ?? {});
        await renderError(refusal, ctx);
      } else writeAnswer(ctx, answer);
    },
    gate: (productUid, signedInAccount, redirectTo) => async (ctx: Context, next: Next) => {
      const denied = await gateAnswer(routes, signedInAccount(ctx), productUid, redirectTo);
      if (denied) writeAnswer(ctx, denied);
      else await next();
    },
  });
}
