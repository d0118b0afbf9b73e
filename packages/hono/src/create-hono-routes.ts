import type { DcbError, DcbErrorCode, RouteView } from '@dcbkit/core';
import {
  checkRouteHandlerOptions,
  gateAnswer,
  type PartnerRouteHandlers,
  type PartnerRoutes,
  partnerRouteHandlers,
  responseOf,
  runFetchRoute,
  withHeaders,
} from '@dcbkit/core/web';
import type { Context, Env, Handler, MiddlewareHandler } from 'hono';
import { routeBodyOf } from './hono-body.js';

export interface HonoRoutesOptions<E extends Env = Env> {
  routes: PartnerRoutes;
  /** The signed-in account of a request (your session's user id, `c.get('userId')`), or undefined. */
  signedInAccount: (c: Context<E>) => string | undefined | Promise<string | undefined>;
  /**
   * The id of the browser's session, when your app has one: form tokens are then bound to the
   * session as well as the account, so one copied from another session is refused. Pass the same
   * id to `routes.formToken(accountKey, sessionId)`.
   */
  sessionId?: (c: Context<E>) => string | undefined | Promise<string | undefined>;
  /** Render a view yourself (`c.html(...)`); default: the view as JSON. */
  render?: (view: RouteView, c: Context<E>) => Response | Promise<Response>;
  /**
   * Render a refusal yourself (an HTML error page): `error.code` says which, `error.httpStatus`
   * what to answer, `error.message` a sentence for the browser. Default: small JSON. The refusal's
   * Allow and Retry-After headers are added to your Response unless it has its own.
   */
  renderError?: (error: DcbError<DcbErrorCode<'route'>>, c: Context<E>) => Response | Promise<Response>;
  /** Where requireAccess sends someone without access; default: answer 403. */
  offersPage?: string;
}

/** The route handlers, each ready to mount; `requireAccess` is a middleware. */
export type HonoRoutes<E extends Env = Env> = PartnerRouteHandlers<
  Handler<E>,
  HonoRoutesOptions<E>['signedInAccount'],
  MiddlewareHandler<E>
>;

/**
 * Checkout, return, cancel, resume, spending a unit and the access gate as Hono handlers, over
 * `@dcbkit/core/web`. Every decision is core's (createPartnerRoutes); these hand it `c.req.raw`,
 * the route's params and the account `signedInAccount(c)` names, and answer its Response. Name
 * your app's Env (`createHonoRoutes<AppEnv>`) to read typed variables with `c.get`.
 *
 * @example
 * const dcb = createHonoRoutes<AppEnv>({ routes: kit.routes, signedInAccount: (c) => c.get('userId') });
 * app.post('/checkout', dcb.checkout());
 * app.get('/return', dcb.returnPage());
 * app.post('/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription());
 * app.get('/premium', dcb.requireAccess('premium'), (c) => c.text('premium content'));
 */
export function createHonoRoutes<E extends Env = Env>(options: HonoRoutesOptions<E>): HonoRoutes<E> {
  checkRouteHandlerOptions('createHonoRoutes', options);
  const { routes, render, renderError } = options;
  return partnerRouteHandlers(routes, options, {
    handle: (action) => async (c) => {
      const { request, parsedBody } = await routeBodyOf(c.req);
      const { answer, view, refusal, refusalHeaders } = await runFetchRoute(action, request, {
        accountKey: options.signedInAccount(c),
        session: options.sessionId?.(c),
        params: c.req.param(),
        parsedBody,
      });
      if (view && render) return render(view, c);
      if (refusal && renderError) return withHeaders(await renderError(refusal, c), refusalHeaders ?? {});
      return responseOf(answer);
    },
    gate: (productUid, signedInAccount, redirectTo) => async (c, next) => {
      const denied = await gateAnswer(routes, signedInAccount(c), productUid, redirectTo);
      if (denied) return responseOf(denied);
      await next();
    },
  });
}
