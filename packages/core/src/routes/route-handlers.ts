/**
 * The route handlers every adapter gives, in its own framework's handler type. Adapters name it:
 * `type ExpressRoutes = PartnerRouteHandlers<RequestHandler, (req: Request) => ...>`.
 */
export interface PartnerRouteHandlers<Handler, SignedInAccount> {
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
  requireAccess(
    productUid: string,
    gate?: { signedInAccount?: SignedInAccount; redirectTo?: string },
  ): Handler;
}
