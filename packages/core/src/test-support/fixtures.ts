// Shared by this folder's tests; not exported from the package.

import { decide, factsOf } from '../access/decide.js';
import { defineOffers } from '../offers/define-offers.js';
import type { Entitlement, EntitlementKey } from '../schemas/entitlement.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { signWebhook } from '../webhooks/sign-webhook.js';

export const offers = defineOffers([
  {
    offerUid: 'off_monthly',
    productUid: 'prod_premium',
    name: 'Premium',
    type: 'SUBSCRIPTION',
    price: { amount: 4500, currency: 'TND' },
    billingPeriod: { unit: 'MONTH', count: 1 },
    gracePolicy: { days: 3, accessDuringGrace: true },
  },
  {
    offerUid: 'off_trial',
    productUid: 'prod_trial',
    name: 'Premium with a trial',
    type: 'SUBSCRIPTION',
    price: { amount: 4500, currency: 'TND' },
    billingPeriod: { unit: 'MONTH', count: 1 },
    trialDays: 7,
    gracePolicy: { days: 3, accessDuringGrace: false },
  },
  {
    offerUid: 'off_credits',
    productUid: 'prod_credits',
    name: '10 credits',
    type: 'CONSUMABLE',
    price: { amount: 2000, currency: 'TND' },
  },
  {
    offerUid: 'off_unlock',
    productUid: 'prod_unlock',
    name: 'Full game',
    type: 'NON_CONSUMABLE',
    price: { amount: 9000, currency: 'TND' },
  },
]);

export function offer(offerUid: string) {
  const found = offers.get(offerUid);
  if (!found) throw new Error(`no fixture offer ${offerUid}`);
  return found;
}

export const T0 = Date.parse('2026-11-21T12:00:00.000Z');
const MINUTE = 60_000;
export const DAY = 86_400_000;

/** An ISO time `minutes` after T0. */
export function at(minutes: number): string {
  return new Date(T0 + minutes * MINUTE).toISOString();
}

export function event(name: string, minutes: number, fields: Partial<WebhookEvent> = {}): WebhookEvent {
  return { event: name, occurredAt: at(minutes), ...fields };
}

/** A payment event as the service sends it for this offer. */
export function paymentEvent(
  name: 'payment.succeeded' | 'payment.failed',
  minutes: number,
  offerUid: string,
  fields: Partial<WebhookEvent> = {},
): WebhookEvent {
  const { productUid } = offer(offerUid);
  return event(name, minutes, {
    paymentUid: 'pay_1',
    status: name === 'payment.succeeded' ? 'SUCCEEDED' : 'FAILED',
    productUid,
    offerUid,
    subscriberUid: 'sbr_1',
    metadata: { accountKey: 'user_1' },
    ...fields,
  });
}

export const KEY = { accountKey: 'user_1', productUid: 'prod_premium' } as const;

export const SECRET = 'whsec_test_0123456789abcdef';
/** The receiving server's clock in handler tests: half an hour after T0. */
export const NOW = new Date(T0 + 30 * 60_000);

/** A request as the service sends it: the JSON body signed with the secret at `signedAt`. */
export function signedRequest(payload: unknown, signedAt: Date = NOW, secret = SECRET) {
  const rawBody = Buffer.from(JSON.stringify(payload));
  return {
    rawBody,
    headers: {
      'content-type': 'application/json',
      'service-signature': signWebhook({ payload: rawBody, secret, timestamp: signedAt }),
    },
  };
}

/**
 * Applies the events one after another as a store would: the order ids it has kept are the facts
 * `decide` is told it knows (what memoryStore does, without the promises).
 */
export function decideAll(
  events: readonly WebhookEvent[],
  offer: OfferDefinition,
  key: EntitlementKey,
): Entitlement | undefined {
  const orders = new Set<string>();
  let current: Entitlement | undefined;
  for (const event of events) {
    const { unitOrderId } = factsOf(event, offer);
    const known = { paymentUid: false, unitOrderId: unitOrderId !== undefined && orders.has(unitOrderId) };
    const next = decide(event, current, offer, key, { known });
    if (next === undefined) continue;
    if (unitOrderId !== undefined) orders.add(unitOrderId);
    current = next;
  }
  return current;
}

/** An ISO time `days` after T0. */
export function dayAt(days: number): string {
  return new Date(T0 + days * DAY).toISOString();
}

/** An event of subscription sub_1 of user_1 on `offerUid`, `days` after T0, as the service words it. */
export function subscriptionEvent(
  offerUid: string,
  name: string,
  days: number,
  fields: Partial<WebhookEvent> = {},
): WebhookEvent {
  return {
    event: name,
    occurredAt: dayAt(days),
    paymentUid: 'pay_1',
    status: 'SUCCEEDED',
    productUid: offer(offerUid).productUid,
    offerUid,
    subscriberUid: 'sbr_1',
    subscriptionUid: 'sub_1',
    metadata: { accountKey: 'user_1' },
    ...fields,
  };
}

/** What a collected charge adds to an event: its order, the price collected, nothing outstanding. */
export function chargeFields(orderId: string, periodEnd: number): Partial<WebhookEvent> {
  return {
    orderId,
    amountCollected: { amount: 4500, currency: 'TND' },
    periodOutstanding: { amount: 0, currency: 'TND' },
    subscriptionStatus: 'ACTIVE',
    currentPeriodEnd: dayAt(periodEnd),
  };
}
