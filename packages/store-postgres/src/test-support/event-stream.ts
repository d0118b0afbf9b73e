import { defineOffers, type WebhookEvent } from '@dcbkit/core';
import { signWebhook } from '@dcbkit/core/webhooks';

// A realistic stream of webhook events for the multi-instance tests: per account a subscription
// bought, renewed, cancelled and withdrawn or revoked, credits bought one by one, a game unlocked.

export const SECRET = 'whsec_store_postgres_test_0123456789abcdef';

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

const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The events of one account, in the order the service emitted them (10 of them). */
function accountEvents(n: number): WebhookEvent[] {
  const account = `user_${n}`;
  const sub = `sub_${n}`;
  // Each account's story starts a little later, so that occurredAt never ties within an account.
  const start = T0 + n * 1000;
  const credits = (k: number, at: number): WebhookEvent => ({
    event: 'payment.succeeded',
    paymentUid: `pay_c${n}_${k}`,
    status: 'SUCCEEDED',
    orderId: `ord_c${n}_${k}`,
    productUid: 'prod_credits',
    offerUid: 'off_credits',
    subscriberUid: `sbr_${n}`,
    metadata: { accountKey: account },
    occurredAt: iso(at),
  });
  const renewal = (k: number): WebhookEvent => ({
    event: 'entitlement.updated',
    paymentUid: `pay_s${n}`,
    subscriptionUid: sub,
    orderId: `ord_r${n}_${k}`,
    amountCollected: { amount: 4500, currency: 'TND' },
    currentPeriodEnd: iso(start + (k + 1) * 30 * DAY),
    occurredAt: iso(start + k * 30 * DAY),
  });
  const events: WebhookEvent[] = [
    {
      event: 'payment.succeeded',
      paymentUid: `pay_s${n}`,
      status: 'SUCCEEDED',
      orderId: `ord_s${n}`,
      productUid: 'prod_premium',
      offerUid: 'off_monthly',
      subscriberUid: `sbr_${n}`,
      subscriptionUid: sub,
      currentPeriodEnd: iso(start + 30 * DAY),
      metadata: { accountKey: account },
      occurredAt: iso(start),
    },
    credits(1, start + 1 * DAY),
    credits(2, start + 2 * DAY),
    credits(3, start + 3 * DAY),
    renewal(1),
    {
      event: 'subscription.updated',
      subscriptionUid: sub,
      subscriptionStatus: 'PRE_CANCELED',
      cancelAt: iso(start + 60 * DAY),
      occurredAt: iso(start + 40 * DAY),
    },
    {
      event: 'payment.succeeded',
      paymentUid: `pay_u${n}`,
      status: 'SUCCEEDED',
      orderId: `ord_u${n}`,
      productUid: 'prod_unlock',
      offerUid: 'off_unlock',
      subscriberUid: `sbr_${n}`,
      metadata: { accountKey: account },
      occurredAt: iso(start + 41 * DAY),
    },
    n % 2 === 0
      ? {
          event: 'subscription.updated',
          subscriptionUid: sub,
          subscriptionStatus: 'ACTIVE',
          cancelAt: null,
          occurredAt: iso(start + 42 * DAY),
        }
      : {
          event: 'entitlement.revoked',
          subscriptionUid: sub,
          paymentUid: `pay_s${n}`,
          occurredAt: iso(start + 42 * DAY),
        },
    credits(4, start + 43 * DAY),
    n % 2 === 0 ? renewal(2) : credits(5, start + 44 * DAY),
  ];
  return events;
}

export const EVENTS_PER_ACCOUNT = 10;

/** `accounts` × 10 events, in emission order (accounts interleaved as a busy service would send them). */
export function eventStream(accounts: number, firstAccount = 0): WebhookEvent[] {
  const perAccount = Array.from({ length: accounts }, (_, i) => accountEvents(firstAccount + i));
  const stream: WebhookEvent[] = [];
  for (let k = 0; k < EVENTS_PER_ACCOUNT; k++) {
    for (const events of perAccount) stream.push(events[k] as WebhookEvent);
  }
  return stream;
}

/** The credits every account of the stream bought (each must be counted once). */
export function creditsBought(events: readonly WebhookEvent[]): Map<string, number> {
  const bought = new Map<string, number>();
  for (const event of events) {
    if (event.productUid !== 'prod_credits') continue;
    const account = String(event.metadata?.accountKey);
    bought.set(account, (bought.get(account) ?? 0) + 1);
  }
  return bought;
}

/** A deterministic pseudo-random generator (mulberry32), so a failing shuffle can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface SignedDelivery {
  body: string;
  headers: Record<string, string>;
}

/** The event as the service posts it: JSON, signed now (a redelivery gets a fresh signature). */
export function signed(event: WebhookEvent): SignedDelivery {
  const body = JSON.stringify(event);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'service-signature': signWebhook({ payload: body, secret: SECRET }),
    },
  };
}
