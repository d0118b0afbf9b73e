import type { Payment } from '../schemas/payment.js';
import type { MetricEntry, MetricKind } from './metric-entry.js';

/**
 * The service's codes that say the subscriber's line could not pay for this offer with carrier
 * billing at all: opted out (RSK-101), a number that is invalid (SBR-102) or of an operator not
 * supported (SBR-104), a trial the line already had (SUB-108), an item it already owns (CAT-109).
 * A checkout that ends with one of them, failed or expired, was *refused*; trying again with the
 * same line cannot succeed. Every other code (PAY-101 no balance, PAY-103 declined) is a *failure*
 * of a line that could pay: another attempt may.
 */
export const CHECKOUT_REFUSAL_CODES: ReadonlySet<string> = new Set([
  'RSK-101',
  'SBR-102',
  'SBR-104',
  'SUB-108',
  'CAT-109',
]);

/** The detail of a failed checkout the service gave no code for (a wrong PIN, consent not completed). */
export const CHECKOUT_NO_CODE = 'none';

/** The kinds of a checkout's ending, one per way it ends. */
export type CheckoutEndKind = Extract<
  MetricKind,
  'checkout_succeeded' | 'checkout_refused' | 'checkout_failed' | 'checkout_expired' | 'checkout_canceled'
>;

export interface CheckoutOutcome {
  readonly kind: CheckoutEndKind;
  /** The code of a refusal or a failure (`CHECKOUT_NO_CODE` for a failure without one). */
  readonly detail?: string;
}

/**
 * How a checkout ended, from the payment's status and the service's `failureCode`: undefined while
 * it is open. A refusal code wins over the status (a subscriber who gave up after the checkout
 * refused their line failed or expired *because* of it); an expiry without one is an expiry.
 */
export function checkoutOutcomeOf(
  status: Payment['status'],
  failureCode: string | undefined,
): CheckoutOutcome | undefined {
  if (status === 'SUCCEEDED') return { kind: 'checkout_succeeded' };
  if (status === 'CANCELED') return { kind: 'checkout_canceled' };
  if (status !== 'FAILED' && status !== 'EXPIRED') return undefined;
  if (failureCode !== undefined && CHECKOUT_REFUSAL_CODES.has(failureCode)) {
    return { kind: 'checkout_refused', detail: failureCode };
  }
  if (status === 'EXPIRED') return { kind: 'checkout_expired' };
  return { kind: 'checkout_failed', detail: failureCode ?? CHECKOUT_NO_CODE };
}

/** A checkout of the funnel: a payment the partner routes created, as the kit recorded it. */
export interface FunnelCheckout {
  readonly paymentUid: string;
  readonly offerUid: string;
  readonly productUid: string;
  /** When the kit recorded it (ISO 8601): the bucket it counts in, start and end alike. */
  readonly recordedAt: string;
}

/**
 * The fact that a checkout started, keyed by its payment so that it counts once. `currency` is
 * the offer's (the daily totals are kept per currency; the funnel adds no money).
 */
export function checkoutStartedEntry(checkout: FunnelCheckout, currency: string): MetricEntry {
  return {
    key: `checkout:${checkout.paymentUid}`,
    kind: 'checkout_started',
    offerUid: checkout.offerUid,
    productUid: checkout.productUid,
    occurredAt: checkout.recordedAt,
    count: 1,
    amount: 0,
    currency,
    live: 0,
  };
}

/**
 * The fact of how a checkout ended, keyed by its payment (the first teller wins: a webhook, the
 * return page's read, reconciliation's read) and dated when it STARTED, so that a checkout counts
 * once, in the bucket it started, whenever it ended. Undefined while the payment is open.
 */
export function checkoutEndEntry(
  checkout: FunnelCheckout,
  ending: { readonly status: Payment['status']; readonly failureCode?: string | undefined },
  currency: string,
): MetricEntry | undefined {
  const outcome = checkoutOutcomeOf(ending.status, ending.failureCode);
  if (outcome === undefined) return undefined;
  return {
    key: `checkout_end:${checkout.paymentUid}`,
    kind: outcome.kind,
    offerUid: checkout.offerUid,
    productUid: checkout.productUid,
    occurredAt: checkout.recordedAt,
    count: 1,
    amount: 0,
    currency,
    live: 0,
    ...(outcome.detail !== undefined ? { detail: outcome.detail } : {}),
  };
}
