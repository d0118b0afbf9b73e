import { gateAnswer } from '../routes/gate-answer.js';
import { checkRouteHandlerOptions, type RouteHandlerOptions } from '../routes/route-handler-options.js';
import { type PartnerRouteHandlers, partnerRouteHandlers } from '../routes/route-handlers.js';
import { runFetchRoute } from './fetch-route-request.js';
import { outcomeResponse } from './outcome-response.js';
import { responseOf } from './response-of.js';

/** createFetchRoutes' options: `render` and `renderError` get the Request and make the Response. */
export interface FetchRoutesOptions extends RouteHandlerOptions<Request, Response | Promise<Response>> {}

/** A partner route on fetch: the request, and the params your router matched (`{ subscriptionUid }`). */
export type FetchRouteHandler = (
  request: Request,
  params?: Readonly<Record<string, string>>,
) => Promise<Response>;

/** The access gate on fetch: undefined lets the request through; otherwise the Response to answer (403, or 303 to the offers page). */
export type FetchAccessGate = (request: Request) => Promise<Response | undefined>;

/** The route handlers, each a function of a fetch Request. */
export type FetchRoutes = PartnerRouteHandlers<
  FetchRouteHandler,
  FetchRoutesOptions['signedInAccount'],
  FetchAccessGate
>;

/**
 * Checkout, return, cancel, resume, spending a unit and the access gate over fetch's Request and
 * Response, for any server that speaks them (an edge function, Bun, Deno, Hono, Next.js route
 * handlers). Every decision is core's (createPartnerRoutes): POST only for the routes that change
 * something (405 with `Allow: POST` otherwise), the cross-site check and the form token, fields
 * from the body only for those; these only read the request and make the Response.
 *
 * @example
 * const dcb = createFetchRoutes({ routes: kit.routes, signedInAccount: (request) => userOf(request) });
 * // In your router:
 * //   POST /checkout                                -> dcb.checkout()(request)
 * //   GET  /return                                  -> dcb.returnPage()(request)
 * //   POST /subscriptions/:subscriptionUid/cancel   -> dcb.cancelSubscription()(request, { subscriptionUid })
 * //   GET  /premium: (await dcb.requireAccess('premium')(request)) ?? showPremium(request)
 */
export function createFetchRoutes(options: FetchRoutesOptions): FetchRoutes {
  checkRouteHandlerOptions('createFetchRoutes', options);
  const { routes } = options;
  return partnerRouteHandlers(routes, options, {
    handle: (action) => async (request, params) => {
      const outcome = await runFetchRoute(action, request, {
        accountKey: options.signedInAccount(request),
        session: options.sessionId?.(request),
        params,
      });
      return outcomeResponse(outcome, options, request);
    },
    gate: (productUid, signedInAccount, redirectTo) => async (request) => {
      const denied = await gateAnswer(routes, signedInAccount(request), productUid, redirectTo);
      return denied === undefined ? undefined : responseOf(denied);
    },
  });
}
