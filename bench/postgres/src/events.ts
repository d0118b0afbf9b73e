import { defineOffers } from '@dcbkit/core';
import { signWebhook } from '@dcbkit/core/webhooks';

export const SECRET = 'whsec_bench_postgres_0123456789abcdef';
/** Accounts the events are spread over: later rounds update entitlements earlier rounds created. */
export const ACCOUNTS = 1_000;

export const offers = defineOffers([
  {
    offerUid: 'off_premium_monthly',
    productUid: 'prod_premium',
    name: 'Premium',
    type: 'SUBSCRIPTION',
    price: { amount: 4500, currency: 'TND' },
    billingPeriod: { unit: 'MONTH', count: 1 },
  },
  {
    offerUid: 'off_credits_10',
    productUid: 'prod_credits',
    name: '10 credits',
    type: 'CONSUMABLE',
    price: { amount: 2000, currency: 'TND' },
  },
]);

export interface BenchEvent {
  rawBody: Buffer;
  headers: Record<string, string>;
  /** What the floor needs without parsing dcbkit's way. */
  accountKey: string;
  productUid: string;
  offerUid: string;
  /** A subscription's; undefined for a credits purchase. */
  subscriptionUid: string | undefined;
  currentPeriodEnd: string | undefined;
  orderId: string;
  paymentUid: string;
  subscriberUid: string;
  occurredAt: string;
  /** The event key dcbkit's ledger uses (eventKey), so both write the same rows. */
  key: string;
}

const T0 = Date.parse('2026-11-21T12:00:00.000Z');

/**
 * `count` distinct payment events numbered from `first`, as the service sends them: 30 %
 * subscription purchases, 70 % credit purchases, over ACCOUNTS accounts (so most writes update a
 * row that exists). All name their account in metadata: no lookup before the write.
 */
export function benchEvents(first: number, count: number, signedAt: Date): BenchEvent[] {
  const events: BenchEvent[] = [];
  for (let n = first; n < first + count; n++) {
    const id = String(n).padStart(9, '0');
    const subscription = n % 10 < 3;
    const accountKey = `user_${n % ACCOUNTS}`;
    const productUid = subscription ? 'prod_premium' : 'prod_credits';
    const event = {
      event: 'payment.succeeded',
      paymentUid: `pay_${id}`,
      status: 'SUCCEEDED',
      orderId: `ord_${id}`,
      productUid,
      offerUid: subscription ? 'off_premium_monthly' : 'off_credits_10',
      subscriberUid: `sbr_${n % ACCOUNTS}`,
      ...(subscription
        ? { subscriptionUid: `sub_${id}`, currentPeriodEnd: new Date(T0 + 30 * 86_400_000).toISOString() }
        : {}),
      metadata: { accountKey },
      occurredAt: new Date(T0 + n * 1000).toISOString(),
    };
    const rawBody = Buffer.from(JSON.stringify(event));
    events.push({
      rawBody,
      headers: {
        'content-type': 'application/json',
        'service-signature': signWebhook({ payload: rawBody, secret: SECRET, timestamp: signedAt }),
      },
      accountKey,
      productUid,
      offerUid: event.offerUid,
      subscriptionUid: event.subscriptionUid,
      currentPeriodEnd: event.currentPeriodEnd,
      orderId: event.orderId,
      paymentUid: event.paymentUid,
      subscriberUid: event.subscriberUid,
      occurredAt: event.occurredAt,
      key: [
        event.event,
        event.paymentUid,
        event.subscriptionUid ?? '',
        event.orderId,
        '',
        event.occurredAt,
      ].join('\u001f'),
    });
  }
  return events;
}
