import {
  checkRouteHandlerOptions,
  gateAnswer,
  outcomeResponse,
  type PartnerRouteHandlers,
  partnerRouteHandlers,
  type RouteHandlerOptions,
  responseOf,
  runFetchRoute,
} from '@dcbkit/core/web';
import type { Context, Env, Handler, MiddlewareHandler } from 'hono';
import { routeBodyOf } from './hono-body.js';

/** createHonoRoutes' options: `render` and `renderError` get the context and make the Response (`c.html(...)`). */
export interface HonoRoutesOptions<E extends Env = Env>
  extends RouteHandlerOptions<Context<E>, Response | Promise<Response>> {}

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
  const { routes } = options;
  return partnerRouteHandlers(routes, options, {
    handle: (action) => async (c) => {
      const { request, parsedBody } = await routeBodyOf(c.req);
      const outcome = await runFetchRoute(action, request, {
        accountKey: options.signedInAccount(c),
        session: options.sessionId?.(c),
        params: c.req.param(),
        parsedBody,
      });
      return outcomeResponse(outcome, options, c);
    },
    gate: (productUid, signedInAccount, redirectTo) => async (c, next) => {
      const denied = await gateAnswer(routes, signedInAccount(c), productUid, redirectTo);
      if (denied) return responseOf(denied);
      await next();
    },
  });
}
