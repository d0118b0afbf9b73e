import type { DcbClient } from '../client/create-client.js';
import type { Entitlement } from '../entitlements/entitlement.js';
import { DEFAULT_ACCOUNT_KEY_FIELD } from '../entitlements/handler/account-key.js';
import { applySubscriptionRead } from '../entitlements/handler/apply-subscription-read.js';
import type { GrantResult } from '../entitlements/handler/grant-from-payment.js';
import type { Offers } from '../entitlements/offers/define-offers.js';
import { hasAccess } from '../entitlements/rules/has-access.js';
import type { EntitlementStore } from '../entitlements/store/entitlement-store.js';
import type { CreatePaymentRequest, Presentation } from '../schemas/create-payment.js';
import type { Payment, PaymentStatus } from '../schemas/payment.js';
import type { SubscriptionCancelWhen } from '../schemas/subscription.js';
import { checkoutIdempotencyKey, isCheckoutNonce } from './checkout-nonce.js';
import { fromClientError } from './from-client-error.js';
import { RouteError } from './route-error.js';
import type { ReturnState, RouteResult } from './route-result.js';

export interface PartnerRoutesOptions {
  client: DcbClient;
  store: EntitlementStore;
  offers: Offers;
  /** Grants from a server-side payment read: the webhook handler's `grantFromPayment`. */
  grantFromPayment: (payment: Payment) => Promise<GrantResult>;
  /** Absolute URL of your return route; the service sends the browser there after checkout. */
  returnUrl: string;
  /** The payment metadata field that carries your account key; the webhook handler must read the same. Default `accountKey`. */
  accountKeyField?: string;
  /** Numbers to prefill on checkout for an account (never a substitute for consent). */
  prefill?: (accountKey: string) => CreatePaymentRequest['prefill'] | undefined;
  now?: () => Date;
}

/** Fields as an adapter collected them from the query, the form or JSON body, and route params. */
export type RouteFields = Readonly<Record<string, unknown>>;

export interface RouteInput {
  /** The signed-in account, from your app's session. Undefined means nobody is signed in. */
  accountKey: string | undefined;
  fields: RouteFields;
}

export interface PartnerRoutes {
  /** Starts a hosted payment for `offerUid` with the form's `nonce`; redirects (303) to checkout, or answers the embed URL. */
  checkout(input: RouteInput): Promise<RouteResult>;
  /** The return page: confirms `paymentUid` with a server-side read and grants when it succeeded. */
  confirmReturn(input: RouteInput): Promise<RouteResult>;
  /** Cancels `subscriptionUid` of this account, `when` NOW or PERIOD_END. */
  cancelSubscription(input: RouteInput): Promise<RouteResult>;
  /** Withdraws a PERIOD_END cancellation of `subscriptionUid` of this account. */
  resumeSubscription(input: RouteInput): Promise<RouteResult>;
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

  async function checkout({ accountKey, fields }: RouteInput): Promise<RouteResult> {
    const account = signedIn(accountKey);
    const offer = offers.get(text(fields, 'offerUid'));
    if (offer === undefined) throw new RouteError('not_found', 404, 'No such offer.');
    const nonce = fields.nonce;
    if (!isCheckoutNonce(nonce)) {
      throw new RouteError(
        'invalid_request',
        400,
        'The checkout form is missing its nonce; reload the page.',
      );
    }
    const presentation = presentationOf(fields.presentation);
    const prefill = options.prefill?.(account);
    const request: CreatePaymentRequest = {
      mode: 'HOSTED',
      offerUid: offer.offerUid,
      returnUrl,
      presentation,
      metadata: { [field]: account },
      ...(prefill ? { prefill } : {}),
    };
    let payment: Payment;
    try {
      payment = await client.payments.create(request, {
        idempotencyKey: checkoutIdempotencyKey(account, offer.offerUid, nonce),
      });
    } catch (error) {
      throw fromClientError(error, 'No such offer.');
    }
    if (presentation === 'embedded') {
      return {
        type: 'view',
        status: 200,
        view: {
          kind: 'checkout_embedded',
          paymentUid: payment.paymentUid,
          checkoutUrl: payment.checkoutUrl,
          offer,
        },
      };
    }
    return { type: 'redirect', status: 303, location: payment.checkoutUrl };
  }

  async function confirmReturn({ accountKey, fields }: RouteInput): Promise<RouteResult> {
    const account = signedIn(accountKey);
    const paymentUid = identifier(fields, 'paymentUid');
    let payment: Payment;
    try {
      // Never the query's status: the read is the synchronous source of truth.
      payment = await client.payments.retrieve(paymentUid);
    } catch (error) {
      throw fromClientError(error, 'No such payment.');
    }
    if (payment.metadata?.[field] !== account) throw new RouteError('not_found', 404, 'No such payment.');
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
        offer: offers.get(payment.offerUid),
        entitlement,
        hasAccess: hasAccess(entitlement, now()),
      },
    };
  }

  async function changeSubscription(
    { accountKey, fields }: RouteInput,
    action: 'cancel' | 'resume',
  ): Promise<RouteResult> {
    const account = signedIn(accountKey);
    const subscriptionUid = identifier(fields, 'subscriptionUid');
    const when = action === 'cancel' ? cancelWhenOf(fields.when) : undefined;
    const held = await store.findBySubscriptionUid(subscriptionUid);
    if (held === undefined || held.accountKey !== account) {
      throw new RouteError('not_found', 404, 'No such subscription.');
    }
    let subscription: Awaited<ReturnType<DcbClient['subscriptions']['retrieve']>>;
    try {
      subscription = when
        ? await client.subscriptions.cancel(subscriptionUid, { when })
        : await client.subscriptions.resume(subscriptionUid);
    } catch (error) {
      throw fromClientError(error, 'No such subscription.');
    }
    const entitlement = await applySubscriptionRead(subscription, { store, offers, now });
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
    confirmReturn,
    cancelSubscription: (input) => changeSubscription(input, 'cancel'),
    resumeSubscription: (input) => changeSubscription(input, 'resume'),
    async checkAccess(accountKey, productUid) {
      if (accountKey === undefined || accountKey === '') return { allowed: false, entitlement: undefined };
      const entitlement = await store.get(accountKey, productUid);
      return { allowed: hasAccess(entitlement, now()), entitlement };
    },
  };
}

function signedIn(accountKey: string | undefined): string {
  if (typeof accountKey !== 'string' || accountKey === '') {
    throw new RouteError('unauthenticated', 401, 'Sign in first.');
  }
  return accountKey;
}

function text(fields: RouteFields, name: string): string {
  const value = fields[name];
  if (typeof value !== 'string' || value === '')
    throw new RouteError('invalid_request', 400, `${name} is required.`);
  return value;
}

const IDENTIFIER = /^[A-Za-z0-9_.:-]{1,255}$/;

function identifier(fields: RouteFields, name: string): string {
  const value = text(fields, name);
  if (!IDENTIFIER.test(value))
    throw new RouteError('invalid_request', 400, `${name} is not a valid identifier.`);
  return value;
}

function presentationOf(value: unknown): Presentation {
  if (value === undefined || value === '' || value === 'redirect') return 'redirect';
  if (value === 'embedded') return 'embedded';
  throw new RouteError('invalid_request', 400, 'presentation must be redirect or embedded.');
}

function cancelWhenOf(value: unknown): SubscriptionCancelWhen {
  if (value === 'NOW' || value === 'PERIOD_END') return value;
  throw new RouteError('invalid_request', 400, 'when must be NOW or PERIOD_END.');
}
