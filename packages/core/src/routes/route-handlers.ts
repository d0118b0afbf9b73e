import type { PartnerRoutes } from './partner-route-types.js';
import { checkGateOptions } from './route-handler-options.js';
import type { PartnerAction } from './run-route-request.js';

/**
 * The route handlers every adapter gives, in its own framework's handler type. Adapters name it:
 * `type ExpressRoutes = PartnerRouteHandlers<RequestHandler, (req: Request) => ...>`, and make it
 * with partnerRouteHandlers. `Gate` is the access gate's type, when it is not a handler
 * (`@dcbkit/core/web`'s answers a Response, or undefined to let the request through).
 */
export interface PartnerRouteHandlers<Handler, SignedInAccount, Gate = Handler> {
  /** POST: starts a payment for the form's offerUid and nonce; 303 to checkout (JSON for embedded). */
  checkout(): Handler;
  /** GET: the return URL; confirms the payment server-side and grants when it succeeded. */
  returnPage(): Handler;
  /** POST `:paymentUid`: cancels this account's payment still waiting on the subscriber. */
  cancelPayment(): Handler;
  /** POST `:productUid`: spends one unit of this account's CONSUMABLE product. */
  spendUnit(): Handler;
  /** POST `:subscriptionUid` with `when` NOW or PERIOD_END. */
  cancelSubscription(): Handler;
  /** POST `:subscriptionUid`: withdraws a PERIOD_END cancellation. */
  resumeSubscription(): Handler;
  /** Lets the request through only when the account has access to the product; else 403 or a redirect. */
  requireAccess(productUid: string, gate?: { signedInAccount?: SignedInAccount; redirectTo?: string }): Gate;
}

/** How an adapter makes its framework's handlers: the rest of PartnerRouteHandlers is the same for every adapter. */
export interface RouteHandlerFactory<Handler, SignedInAccount, Gate = Handler> {
  /** A handler that runs `action` (`routes.checkout`, …) on the framework's request. */
  handle(action: PartnerAction): Handler;
  /** The access gate of `productUid`, for the account `signedInAccount` names; without access, 403 or a redirect to `redirectTo`. */
  gate(productUid: string, signedInAccount: SignedInAccount, redirectTo: string | undefined): Gate;
}

/**
 * Every adapter's route handlers from its `handle` and `gate`: which route each handler runs, and
 * that a gate's own `signedInAccount` and `redirectTo` win over the adapter's options (checked when
 * the gate is made). The adapter checks its own options first, with checkRouteHandlerOptions.
 *
 * @example
 * return partnerRouteHandlers(options.routes, options, {
 *   handle: (action) => (req, res, next) => { … runPartnerRoute(action, …) … },
 *   gate: (productUid, signedInAccount, redirectTo) => (req, res, next) => { … gateAnswer(…) … },
 * });
 */
export function partnerRouteHandlers<Handler, SignedInAccount, Gate = Handler>(
  routes: PartnerRoutes,
  options: { signedInAccount: SignedInAccount; offersPage?: string | undefined },
  { handle, gate }: RouteHandlerFactory<Handler, SignedInAccount, Gate>,
): PartnerRouteHandlers<Handler, SignedInAccount, Gate> {
  return {
    checkout: () => handle(routes.checkout),
    returnPage: () => handle(routes.returnPage),
    cancelPayment: () => handle(routes.cancelPayment),
    spendUnit: () => handle(routes.spendUnit),
    cancelSubscription: () => handle(routes.cancelSubscription),
    resumeSubscription: () => handle(routes.resumeSubscription),
    requireAccess: (productUid, own = {}) => {
      checkGateOptions('requireAccess', own);
      return gate(
        productUid,
        own.signedInAccount ?? options.signedInAccount,
        own.redirectTo ?? options.offersPage,
      );
    },
  };
}
