import { randomBytes } from 'node:crypto';
import { consumeUnit } from '../access/consume-unit.js';
import { availableUnits, hasAccess } from '../access/has-access.js';
import { offerStanding } from '../access/offer-standing.js';
import { DEFAULT_ACCOUNT_KEY_FIELD } from '../apply/account-key.js';
import { applySubscriptionRead } from '../apply/apply-subscription-read.js';
import type { GrantResult } from '../apply/grant-from-payment.js';
import { historyEntryOf, historyRecorder } from '../apply/history-entry.js';
import {
  forgetSettledPayment,
  isPaymentOpen,
  recordPendingPayment,
} from '../apply/record-pending-payment.js';
import type { DcbClient } from '../client/create-client.js';
import { DcbApiError } from '../client/errors.js';
import { isDcbError } from '../errors/dcb-error.js';
import { optionError } from '../errors/option-error.js';
import { createErrorReporter, type ErrorHook } from '../observability/error-reporter.js';
import { createLogLimit } from '../observability/log-limit.js';
import { consoleLogger, type DcbLogger } from '../observability/logger.js';
import type { Offers } from '../offers/define-offers.js';
import type { CreatePaymentRequest, Presentation } from '../schemas/create-payment.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { Payment, PaymentStatus } from '../schemas/payment.js';
import { isAcceptedReturnUrl, webOriginOf } from '../schemas/return-url.js';
import type { SubscriptionCancelWhen } from '../schemas/subscription.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { isHistoryStore } from '../store/history-store.js';
import type { ReconcileStore } from '../store/reconcile-store.js';
import { createCheckoutLock } from './checkout-lock.js';
import { checkoutIdempotencyKey, isCheckoutNonce } from './checkout-nonce.js';
import { isExpectedCheckoutUrl } from './checkout-url.js';
import {
  createFormToken,
  DEFAULT_FORM_TOKEN_MAX_AGE_MS,
  type FormTokenKeys,
  verifyFormToken,
} from './form-token.js';
import { fromClientError, isMisconfiguration } from './from-client-error.js';
import { routeError } from './route-error.js';
import type { ReturnState, RouteResult } from './route-result.js';
import { assertSameOrigin, type RequestOrigin } from './same-origin.js';

export interface PartnerRoutesOptions {
  client: DcbClient;
  /** The entitlements; when it keeps reconciliation's bookkeeping too, pending payments are remembered for it. */
  store: EntitlementStore & Partial<ReconcileStore>;
  offers: Offers;
  /** Grants from a server-side payment read: the webhook handler's `grantFromPayment`. */
  grantFromPayment: (payment: Payment) => Promise<GrantResult>;
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
   * service gives on any other host is refused (502); without it, any https host is accepted, as
   * long as the URL has the spec's shape `/c/{paymentUid}`.
   */
  checkoutBaseUrl?: string | URL;
  /** The clock of access checks and pending payments (form tokens always use the real time). */
  now?: () => Date;
  /** Record the changes of cancel, resume and spendUnit in the store's history, when it keeps one. Default true. */
  history?: boolean;
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
  /** The account's entitlement to a product, and whether it gives access now. */
  checkAccess(
    accountKey: string | undefined,
    productUid: string,
  ): Promise<{ allowed: boolean; entitlement: Entitlement | undefined }>;
}

const RETURN_STATE: Record<PaymentStatus, ReturnState> = {
  SUCCEEDED: 'succeeded',
  PROCESSING: 'pending',
  REQUIRES_ACTION: 'pending',
  REQUIRES_START: 'pending',
  REQUIRES_CODE: 'pending',
  FAILED: 'failed',
  EXPIRED: 'failed',
  CANCELED: 'failed',
};

/**
 * The decisions behind a partner's billing pages, for any framework: the Express and Koa adapters
 * only collect fields and write the RouteResult back. Every route acts for the signed-in account
 * only: a payment or subscription of another account is "not found".
 *
 * @example
 * const routes = createPartnerRoutes({ client, store, offers, grantFromPayment: handler.grantFromPayment, returnUrl });
 * const result = await routes.checkout({ accountKey: user.id, fields: { offerUid, nonce } });
 */
export function createPartnerRoutes(options: PartnerRoutesOptions): PartnerRoutes {
  const { client, store, offers, returnUrl, now = () => new Date() } = options;
  const field = options.accountKeyField ?? DEFAULT_ACCOUNT_KEY_FIELD;
  const logger = options.logger ?? consoleLogger;
  const reportError = createErrorReporter(logger, options.onError);
  const logLimit = createLogLimit();
  const allowedOrigins = new Set(allowedOriginsOf(returnUrl, options.allowedOrigins));
  const formKeys = formKeysOf(options.formSecret, options.formTokenMaxAgeMs);
  const checkoutBaseUrl = checkoutBaseUrlOf(options.checkoutBaseUrl);
  const checkoutLock = createCheckoutLock(store);
  const recordHistory = historyRecorder(
    options.history !== false && isHistoryStore(store) ? store : undefined,
  );

  /**
   * The defence of a state-changing route: POST only (a link or a navigation carries the
   * session's cookies too); a browser's cross-origin request is refused; a form post (which any
   * site can make without a preflight) must carry a form token of this account and session. A
   * JSON post cannot be sent cross-site without CORS, so it needs no token. Gives the signed-in
   * account and the form token's nonce, when there was one.
   */
  function guard(input: RouteInput): { account: string; nonce: string | undefined } {
    if (input.method !== undefined && input.method.toUpperCase() !== 'POST') {
      throw routeError('method_not_allowed', 'This action needs a form post.');
    }
    const account = signedIn(input.accountKey);
    assertSameOrigin(input.request, allowedOrigins);
    const binding = { accountKey: account, session: input.session };
    const nonce = verifyFormToken(formKeys, binding, input.fields.token, Date.now());
    if (input.request?.simpleBody && nonce === undefined) {
      throw routeError(
        'cross_site_request',
        'The form has expired or is not this account’s; reload the page.',
      );
    }
    return { account, nonce };
  }

  /**
   * What the client threw, as the route's answer. A misconfiguration is reported to `onError`
   * every time and logged at error level (with its fix, once a minute per code), then thrown on to
   * the app's error handler; an outage becomes a 502 for the subscriber and a warning in the log.
   */
  function translate(error: unknown, route: string, notFound: string): never {
    if (isMisconfiguration(error)) {
      reportError(
        error,
        { source: 'route', route },
        `dcbkit: the billing service refused this app's setup: ${error.message}`,
        { log: logLimit(error.code) },
      );
      throw error;
    }
    const answer = fromClientError(error, notFound);
    if (answer.code === 'service_unavailable') {
      logger.warn?.(
        { err: answer.cause, route },
        'dcbkit: the billing service is unavailable; answered 502.',
      );
    }
    throw answer;
  }

  /**
   * The checkout URL of an answer, checked (checkout-url.ts) before it goes into a Location header
   * or an iframe: anything else is the service misbehaving or a proxy tampering, reported and
   * answered 502.
   */
  function checkedCheckoutUrl(paymentUid: string, checkoutUrl: string | undefined): string {
    if (isExpectedCheckoutUrl(checkoutUrl, paymentUid, checkoutBaseUrl)) return checkoutUrl as string;
    const error = routeError(
      'service_unavailable',
      'The payment page could not be opened; please try again later.',
    );
    const expected = checkoutBaseUrl
      ? `${checkoutBaseUrl.href.replace(/\/+$/, '')}/c/${paymentUid}`
      : `https://{checkout host}/c/${paymentUid}`;
    reportError(
      error,
      { source: 'route', route: 'checkout' },
      `dcbkit: the billing service gave a checkout URL that is not ${expected}; refused it and answered 502.`,
      { log: logLimit('checkout_url') },
    );
    throw error;
  }

  async function checkout(input: RouteInput): Promise<RouteResult> {
    const { fields } = input;
    const guarded = guard(input);
    const { account } = guarded;
    const nonce = guarded.nonce ?? fields.nonce;
    const offer = offers.get(text(fields, 'offerUid'));
    if (offer === undefined) throw routeError('not_found', 'No such offer.');
    if (!isCheckoutNonce(nonce)) {
      throw routeError('invalid_request', 'The checkout form is missing its nonce; reload the page.');
    }
    const presentation = presentationOf(fields.presentation);
    return checkoutLock(account, offer.productUid, async () => {
      // Decided on the server for every adapter, before any request to the service: the service
      // refuses a second charge only per phone line, and an account may pay from several.
      const standing = offerStanding({
        offer,
        entitlement: await store.get(account, offer.productUid),
        openCheckouts: (await store.listPendingPaymentsOfAccount?.(account)) ?? [],
        offerOf: offers.get,
        now: now(),
      });
      switch (standing.kind) {
        case 'owned':
          throw routeError('already_owned', 'You already own this item.');
        case 'subscribed':
          throw routeError(
            'already_subscribed',
            'You already have this subscription; manage it from your account.',
          );
        case 'unavailable':
          throw routeError('trial_used', 'The free trial of this product was already used.');
        case 'pending': {
          const { checkoutUrl, paymentUid, offerUid } = standing.checkout;
          if (checkoutUrl === undefined) {
            throw routeError('payment_pending', 'A payment for this is being confirmed; check your account.');
          }
          const url = checkedCheckoutUrl(paymentUid, checkoutUrl);
          return checkoutResult(presentation, paymentUid, url, offers.get(offerUid) ?? offer);
        }
        default: {
          const payment = await createPayment(account, standing.offer, presentation, nonce);
          const url = checkedCheckoutUrl(payment.paymentUid, payment.checkoutUrl);
          await recordPendingPayment(store, payment, account, now());
          return checkoutResult(presentation, payment.paymentUid, url, standing.offer);
        }
      }
    });
  }

  async function createPayment(
    account: string,
    offer: OfferDefinition,
    presentation: Presentation,
    nonce: string,
  ): Promise<Payment> {
    const prefill = options.prefill?.(account);
    const request: CreatePaymentRequest = {
      mode: 'HOSTED',
      offerUid: offer.offerUid,
      returnUrl,
      presentation,
      metadata: { [field]: account },
      ...(prefill ? { prefill } : {}),
    };
    try {
      return await client.payments.create(request, {
        idempotencyKey: checkoutIdempotencyKey(account, offer.offerUid, nonce),
      });
    } catch (error) {
      if (error instanceof DcbApiError && error.code === 'CAT-102' && logLimit(`CAT-102 ${offer.offerUid}`)) {
        // The app sells an offer this environment does not have: its offers are wrong, not the subscriber.
        logger.error?.(
          { offerUid: offer.offerUid, code: error.code },
          `dcbkit: the billing service knows no offer ${offer.offerUid} (CAT-102); checkout answered 404. Your offers must use the offerUids of this environment's catalogue: the console's, or on @dcbkit/sandbox those its dashboard (/sandbox) lists.`,
        );
      }
      translate(error, 'checkout', 'No such offer.');
    }
  }

  async function returnPage({ accountKey, fields }: RouteInput): Promise<RouteResult> {
    const account = signedIn(accountKey);
    const paymentUid = identifier(fields, 'paymentUid');
    let payment: Payment;
    try {
      // Never the query's status: the read is the synchronous source of truth.
      payment = await client.payments.retrieve(paymentUid);
    } catch (error) {
      translate(error, 'return', 'No such payment.');
    }
    if (payment.metadata?.[field] !== account) throw routeError('not_found', 'No such payment.');
    // Still open: remembered, so that reconciliation reads it again if its webhook never lands;
    // settled: no longer a checkout to continue.
    if (isPaymentOpen(payment.status)) await recordPendingPayment(store, payment, account, now());
    else await forgetSettledPayment(store, payment.paymentUid);
    const granted = payment.status === 'SUCCEEDED' ? await options.grantFromPayment(payment) : undefined;
    const entitlement = granted?.entitlement ?? (await store.get(account, payment.productUid));
    return {
      type: 'view',
      status: 200,
      view: {
        kind: 'return',
        state: RETURN_STATE[payment.status],
        paymentUid: payment.paymentUid,
        paymentStatus: payment.status,
        failureCode: payment.status === 'FAILED' ? payment.failureCode : undefined,
        offerOnceTrialUsed: trialUsedByLine(payment),
        continueUrl:
          payment.status === 'REQUIRES_ACTION' &&
          isExpectedCheckoutUrl(payment.checkoutUrl, payment.paymentUid, checkoutBaseUrl)
            ? payment.checkoutUrl
            : undefined,
        expiresAt: payment.expiresAt,
        offer: offers.get(payment.offerUid),
        entitlement,
        hasAccess: hasAccess(entitlement, now()),
      },
    };
  }

  /** A payment refused SUB-108 shows the trial is used: the offer to sell instead, if any. */
  function trialUsedByLine(payment: Payment): OfferDefinition | undefined {
    if (payment.status !== 'FAILED' || payment.failureCode !== 'SUB-108') return undefined;
    const replacement = offers.get(payment.offerUid)?.onceTrialUsed;
    return replacement === undefined ? undefined : offers.get(replacement);
  }

  async function cancelPayment(input: RouteInput): Promise<RouteResult> {
    const { account } = guard(input);
    const paymentUid = identifier(input.fields, 'paymentUid');
    let payment: Payment;
    try {
      payment = await client.payments.retrieve(paymentUid);
    } catch (error) {
      translate(error, 'cancel_payment', 'No such payment.');
    }
    if (payment.metadata?.[field] !== account) throw routeError('not_found', 'No such payment.');
    if (payment.status === 'REQUIRES_ACTION') {
      try {
        await client.payments.cancel(paymentUid);
      } catch (error) {
        translate(error, 'cancel_payment', 'No such payment.');
      }
    } else if (payment.status !== 'CANCELED') {
      // Consent given (the operator is charging), or already ended another way: the spec allows a
      // cancel only while the payment waits on the subscriber.
      if (!isPaymentOpen(payment.status)) await forgetSettledPayment(store, paymentUid);
      throw routeError('conflict', 'This payment can no longer be cancelled.');
    }
    await forgetSettledPayment(store, paymentUid);
    return {
      type: 'view',
      status: 200,
      view: { kind: 'payment_canceled', paymentUid, offer: offers.get(payment.offerUid) },
    };
  }

  async function spendUnit(input: RouteInput): Promise<RouteResult> {
    const { account } = guard(input);
    const productUid = identifier(input.fields, 'productUid');
    let entitlement: Entitlement | undefined;
    try {
      const update = await store.update(account, productUid, consumeUnit);
      entitlement = update.next;
      await recordHistory?.(
        historyEntryOf({
          key: { accountKey: account, productUid },
          source: 'unit_spent',
          decision: 'applied',
          update,
        }),
      );
    } catch (error) {
      if (isDcbError(error, 'no_units_left') || isDcbError(error, 'entitlement_revoked')) {
        throw routeError('conflict', 'No unit is left to use.', { cause: error });
      }
      if (isDcbError(error, 'entitlement_not_found') || isDcbError(error, 'not_consumable')) {
        throw routeError('not_found', 'No such pass.', { cause: error });
      }
      throw error;
    }
    return {
      type: 'view',
      status: 200,
      view: { kind: 'unit_spent', productUid, entitlement, unitsLeft: availableUnits(entitlement) },
    };
  }

  async function changeSubscription(input: RouteInput, action: 'cancel' | 'resume'): Promise<RouteResult> {
    const { fields } = input;
    const { account } = guard(input);
    const subscriptionUid = identifier(fields, 'subscriptionUid');
    const when = action === 'cancel' ? cancelWhenOf(fields.when) : undefined;
    const held = await store.findBySubscriptionUid(subscriptionUid);
    if (held === undefined || held.accountKey !== account) {
      throw routeError('not_found', 'No such subscription.');
    }
    let subscription: Awaited<ReturnType<DcbClient['subscriptions']['retrieve']>>;
    // Taken before the call: the read reflects the subscription no earlier than this.
    const observedAt = now();
    try {
      subscription = when
        ? await client.subscriptions.cancel(subscriptionUid, { when })
        : await client.subscriptions.resume(subscriptionUid);
    } catch (error) {
      translate(error, action, 'No such subscription.');
    }
    const entitlement = (
      await applySubscriptionRead(subscription, { store, offers, now, observedAt, recordHistory })
    )?.next;
    return {
      type: 'view',
      status: 200,
      view: {
        kind: 'subscription',
        action,
        subscription,
        entitlement,
        hasAccess: hasAccess(entitlement, now()),
      },
    };
  }

  return {
    checkout,
    returnPage,
    cancelPayment,
    spendUnit,
    cancelSubscription: (input) => changeSubscription(input, 'cancel'),
    resumeSubscription: (input) => changeSubscription(input, 'resume'),
    formToken: (accountKey, session) =>
      createFormToken(formKeys, { accountKey: signedIn(accountKey), session }, Date.now()),
    verifyFormToken: (accountKey, token, session) =>
      typeof accountKey === 'string' &&
      accountKey !== '' &&
      verifyFormToken(formKeys, { accountKey, session }, token, Date.now()) !== undefined,
    async checkAccess(accountKey, productUid) {
      if (accountKey === undefined || accountKey === '') return { allowed: false, entitlement: undefined };
      const entitlement = await store.get(accountKey, productUid);
      return { allowed: hasAccess(entitlement, now()), entitlement };
    },
  };
}

/** Where the browser goes to pay: 303 to the checkout, or the view that embeds it. */
function checkoutResult(
  presentation: Presentation,
  paymentUid: string,
  checkoutUrl: string,
  offer: OfferDefinition,
): RouteResult {
  if (presentation === 'embedded') {
    return { type: 'view', status: 200, view: { kind: 'checkout_embedded', paymentUid, checkoutUrl, offer } };
  }
  return { type: 'redirect', status: 303, location: checkoutUrl };
}

function signedIn(accountKey: string | undefined): string {
  if (typeof accountKey !== 'string' || accountKey === '') {
    throw routeError('unauthenticated', 'Sign in first.');
  }
  // A lone surrogate becomes U+FFFD once encoded as UTF-8 (in metadata, in a key digest), so two
  // accounts would share one: such a key is refused rather than silently merged.
  if (LONE_SURROGATE.test(accountKey)) {
    throw routeError('invalid_request', 'The signed-in account key is not well-formed text.');
  }
  return accountKey;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The form token keys the options describe: a random one per process when none is given. */
function formKeysOf(
  formSecret: string | readonly string[] | undefined,
  maxAgeMs = DEFAULT_FORM_TOKEN_MAX_AGE_MS,
): FormTokenKeys {
  const secrets = formSecret === undefined ? [randomBytes(32).toString('base64url')] : [formSecret].flat();
  if (secrets.length === 0 || !secrets.every((secret) => typeof secret === 'string' && secret !== '')) {
    throw optionError(
      'createPartnerRoutes',
      'formSecret',
      'must be a non-empty string or a non-empty list of them.',
    );
  }
  if (!(Number.isSafeInteger(maxAgeMs) && maxAgeMs > 0)) {
    throw optionError(
      'createPartnerRoutes',
      'formTokenMaxAgeMs',
      'must be a whole number of milliseconds > 0.',
    );
  }
  return { secrets, maxAgeMs };
}

function checkoutBaseUrlOf(value: string | URL | undefined): URL | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
    throw optionError(
      'createPartnerRoutes',
      'checkoutBaseUrl',
      'must be the absolute http(s) URL of the checkout host.',
    );
  }
  return new URL(text);
}

function text(fields: RouteFields, name: string): string {
  const value = fields[name];
  if (typeof value !== 'string' || value === '') throw routeError('invalid_request', `${name} is required.`);
  return value;
}

const IDENTIFIER = /^[A-Za-z0-9_.:-]{1,255}$/;

function identifier(fields: RouteFields, name: string): string {
  const value = text(fields, name);
  if (!IDENTIFIER.test(value)) throw routeError('invalid_request', `${name} is not a valid identifier.`);
  return value;
}

function presentationOf(value: unknown): Presentation {
  if (value === undefined || value === '' || value === 'redirect') return 'redirect';
  if (value === 'embedded') return 'embedded';
  throw routeError('invalid_request', 'presentation must be redirect or embedded.');
}

function cancelWhenOf(value: unknown): SubscriptionCancelWhen {
  if (value === 'NOW' || value === 'PERIOD_END') return value;
  throw routeError('invalid_request', 'when must be NOW or PERIOD_END.');
}

/**
 * Checks `returnUrl` as the spec types it (`uri`: any absolute URI, except the schemes that carry
 * script) and gives the origins whose pages may post to the routes: `allowedOrigins` when given,
 * else the return page's own. A deep link (`myapp://done`) has no web origin to derive them from,
 * so it needs `allowedOrigins`: an empty default would refuse the app's own form posts wherever a
 * browser sends `Origin` without `Sec-Fetch-Site`.
 */
function allowedOriginsOf(
  returnUrl: unknown,
  allowedOrigins: readonly string[] | undefined,
): readonly string[] {
  if (!isAcceptedReturnUrl(returnUrl)) {
    throw optionError(
      'createPartnerRoutes',
      'returnUrl',
      "must be an absolute URL (your return page, or your app's deep link), never javascript:, data: or vbscript:.",
    );
  }
  if (allowedOrigins !== undefined) return allowedOrigins;
  const origin = webOriginOf(returnUrl);
  if (origin === null) {
    throw optionError(
      'createPartnerRoutes',
      'allowedOrigins',
      `is needed with a ${new URL(returnUrl).protocol} returnUrl, which has no web origin: name the origins of the pages that post to checkout, cancel and resume.`,
    );
  }
  return [origin];
}
