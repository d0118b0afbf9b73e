import type { DcbError } from '../errors/dcb-error.js';
import { gateAnswer } from '../routes/gate-answer.js';
import type { PartnerRoutes } from '../routes/partner-route-types.js';
import type { RouteErrorCode } from '../routes/route-error.js';
import { checkRouteHandlerOptions } from '../routes/route-handler-options.js';
import { type PartnerRouteHandlers, partnerRouteHandlers } from '../routes/route-handlers.js';
import type { RouteView } from '../routes/route-result.js';
import { runFetchRoute } from './fetch-route-request.js';
import { responseOf, withHeaders } from './response-of.js';

export interface FetchRoutesOptions {
  routes: PartnerRoutes;
  /** The signed-in account of a request (your session's user id), or undefined. */
  signedInAccount: (request: Request) => string | undefined | Promise<string | undefined>;
  /**
   * The id of the browser's session, when your app has one: form tokens are then bound to the
   * session as well as the account, so one copied from another session is refused. Pass the same
   * id to `routes.formToken(accountKey, sessionId)`.
   */
  sessionId?: (request: Request) => string | undefined | Promise<string | undefined>;
  /** Render a view yourself (an HTML page); default: the view as JSON. */
  render?: (view: RouteView, request: Request) => Response | Promise<Response>;
  /**
   * Render a refusal yourself (an HTML error page): `error.code` says which, `error.httpStatus`
   * what to answer, `error.message` a sentence for the browser. Default: small JSON. The refusal's
   * Allow and Retry-After headers are added to your Response unless it has its own.
   */
  renderError?: (error: DcbError<RouteErrorCode>, request: Request) => Response | Promise<Response>;
  /** Where requireAccess sends someone without access; default: answer 403. */
  offersPage?: string;
}

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
  const { routes, render, renderError } = options;
  return partnerRouteHandlers(routes, options, {
    handle: (action) => async (request, params) => {
      const { answer, view, refusal, refusalHeaders } = await runFetchRoute(action, request, {
        accountKey: options.signedInAccount(request),
        session: options.sessionId?.(request),
        params,
      });
      if (view && render) return render(view, request);
      if (refusal && renderError)
        return withHeaders(await renderError(refusal, request), refusalHeaders ?? {});
      return responseOf(answer);
    },
    gate: (productUid, signedInAccount, redirectTo) => async (request) => {
      const denied = await gateAnswer(routes, signedInAccount(request), productUid, redirectTo);
      return denied === undefined ? undefined : responseOf(denied);
    },
  });
}
