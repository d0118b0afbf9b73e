import type { GrantResult } from '../apply/apply-payment-read.js';
import type { DcbClient } from '../client/create-client.js';
import type { ErrorHook } from '../observability/error-reporter.js';
import type { DcbLogger } from '../observability/logger.js';
import type { Offers } from '../offers/define-offers.js';
import type { CreatePaymentRequest } from '../schemas/create-payment.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { Payment } from '../schemas/payment.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import type { ReconcileStore } from '../store/reconcile-store.js';
import type { CheckoutHealth } from './checkout-refusals.js';
import type { RouteResult } from './route-result.js';
import type { RequestOrigin } from './same-origin.js';

export interface PartnerRoutesOptions {
  client: DcbClient;
  /** The entitlements; when it keeps reconciliation's bookkeeping too, pending payments are remembered for it. */
  store: EntitlementStore & Partial<ReconcileStore>;
  offers: Offers;
  /**
   * Grants what a succeeded payment, read server-side by the return page, pays for: the kit's
   * `grantFromPayment`, or `applyPaymentRead` with your store and offers.
   */
  grantSucceededPayment: (payment: Payment) => Promise<GrantResult>;
  /**
   * Where the service sends the browser after checkout: the absolute URL of your return route, or
   * your app's deep link (`myapp://done`, then give `allowedOrigins`). Never `javascript:`,
   * `data:` or `vbscript:`.
   */
  returnUrl: string;
  /** The payment metadata field that carries your account key; the webhook handler must read the same. Default `accountKey`. */
  accountKeyField?: string;
  /** Numbers to prefill on checkout for an account (never a substitute for consent). */
  prefill?: (accountKey: string) => CreatePaymentRequest['prefill'] | undefined;
  /** Default: warnings and errors on the console. */
  logger?: DcbLogger;
  /** Receives the Error when a route fails for a reason other than the browser's request. */
  onError?: ErrorHook;
  /**
   * Origins whose pages may post to the state-changing routes (checkout, cancel, resume).
   * Default: the origin of `returnUrl`, your app's own; required when `returnUrl` is a deep link,
   * which has no web origin.
   */
  allowedOrigins?: readonly string[];
  /**
   * The key that binds form tokens to an account, or several while rotating it (the first makes
   * new tokens, any verifies). Several instances must share it. Default: a random key per process
   * (createDcbKit takes `DCB_FORM_SECRET`, else derives a shared key from the webhook secrets).
   */
  formSecret?: string | readonly string[];
  /** How long a rendered form may be posted. Default 12 hours. */
  formTokenMaxAgeMs?: number;
  /**
   * The environment's checkout host (`DCB_CHECKOUT_BASE_URL`). When set, a checkout URL the
   * service gives on any other host is refused (502) and its payment cancelled. Required with a
   * production client; elsewhere, without it, any https host is accepted, as long as the URL has
   * the spec's shape `/c/{paymentUid}`.
   */
  checkoutBaseUrl?: string | URL;
  /** The clock of access checks and pending payments (form tokens always use the real time). */
  now?: () => Date;
  /** Record the changes of cancel, resume and spendUnit in the store's history, when it keeps one. Default true. */
  history?: boolean;
  /** Record the business view's facts of the return page, cancel, resume and spendUnit, when the store keeps them. Default true. */
  metrics?: boolean;
}

/** Fields as an adapter collected them from the query, the form or JSON body, and route params. */
export type RouteFields = Readonly<Record<string, unknown>>;

export interface RouteInput {
  /** The signed-in account, from your app's session. Undefined means nobody is signed in. */
  accountKey: string | undefined;
  fields: RouteFields;
  /** Where the request came from; adapters fill it from the headers. */
  request?: RequestOrigin;
  /**
   * The HTTP method, as adapters pass it: the state-changing routes refuse anything but POST
   * (`method_not_allowed`). Undefined for a direct call from your own server code.
   */
  method?: string | undefined;
  /** The id of the browser's session, when your app has one: form tokens are bound to it too. */
  session?: string | undefined;
}

export interface PartnerRoutes {
  /**
   * Starts a hosted payment for `offerUid`; redirects (303) to checkout, or answers the embed
   * URL. A form posts `token` (from formToken); a JSON call posts a `nonce` (createCheckoutNonce).
   * Either makes repeated submits of one form one payment.
   */
  checkout(input: RouteInput): Promise<RouteResult>;
  /** The return page: confirms `paymentUid` with a server-side read and grants when it succeeded. */
  returnPage(input: RouteInput): Promise<RouteResult>;
  /**
   * Cancels a payment of this account still waiting on the subscriber (`paymentUid`), as the
   * service allows only then (`POST /v1/payments/{paymentUid}/cancel`), and forgets it as pending.
   */
  cancelPayment(input: RouteInput): Promise<RouteResult>;
  /**
   * Spends one unit of this account's CONSUMABLE `productUid` (a pass, a credit), atomically in the
   * store, so units never go below zero however many spends race; `conflict` when none is left.
   */
  spendUnit(input: RouteInput): Promise<RouteResult>;
  /** Cancels `subscriptionUid` of this account, `when` NOW or PERIOD_END. */
  cancelSubscription(input: RouteInput): Promise<RouteResult>;
  /** Withdraws a PERIOD_END cancellation of `subscriptionUid` of this account. */
  resumeSubscription(input: RouteInput): Promise<RouteResult>;
  /**
   * A token to render as the hidden `token` field of every state-changing form of this account
   * (and of `session`, your session id, when you pass the same one to the adapter). A form post
   * without a valid one, or with one older than `formTokenMaxAgeMs`, is refused
   * (`cross_site_request`).
   */
  formToken(accountKey: string, session?: string): string;
  /**
   * True when `token` is a form token of this account (and session) still within its age: give
   * your own state-changing forms (an operator's, a settings page's) the same protection.
   */
  verifyFormToken(accountKey: string, token: unknown, session?: string): boolean;
  /**
   * The checkouts refused since start because the service's checkout URL was not on the checkout
   * host, and the last one: what was received, the host it names and the one configured. Above
   * zero, nearly always a wrong `checkoutBaseUrl` (`DCB_CHECKOUT_BASE_URL`): show it to operators.
   */
  checkoutHealth(): CheckoutHealth;
  /** The account's entitlement to a product, and whether it gives access now. */
  checkAccess(
    accountKey: string | undefined,
    productUid: string,
  ): Promise<{ allowed: boolean; entitlement: Entitlement | undefined }>;
}
