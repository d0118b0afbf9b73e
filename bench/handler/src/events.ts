import { signBody } from '@dcbkit-bench/shared';

export const SECRET = 'whsec_bench_0123456789abcdef0123456789';

// A plain list, as a partner may pass it: createWebhookHandler accepts it as defineOffers would.
export const offers = [
  {
    offerUid: 'off_premium_monthly',
    productUid: 'prod_premium',
    name: 'Premium',
    type: 'SUBSCRIPTION',
    price: { amount: 4500, currency: 'TND' },
    billingPeriod: { unit: 'MONTH', count: 1 },
    gracePolicy: { days: 3, accessDuringGrace: true },
  },
  {
    offerUid: 'off_credits_10',
    productUid: 'prod_credits',
    name: '10 credits',
    type: 'CONSUMABLE',
    price: { amount: 2000, currency: 'TND' },
  },
] as const;

export interface SignedRequest {
  rawBody: Buffer;
  headers: Record<string, string>;
}

const T0 = Date.parse('2026-11-21T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * `count` distinct events as the service sends them, numbered from `first` so that batches never
 * repeat an event: 40 % subscription purchases, 40 % renewals of those (no metadata: found by
 * subscription), 20 % credit purchases spread over 1,000 accounts. `padTo` grows each body to
 * that many bytes with a metadata note (the partner's own correlation data), as bench/webhook-verify does.
 */
export function signedEvents(first: number, count: number, signedAt: Date, padTo = 0): SignedRequest[] {
  const requests: SignedRequest[] = [];
  for (let n = first; n < first + count; n++) {
    const kind = n % 5;
    const id = String(n).padStart(8, '0');
    const occurredAt = iso(T0 + n * 1000);
    let event: Record<string, unknown>;
    if (kind === 0 || kind === 1) {
      event = {
        event: 'payment.succeeded',
        paymentUid: `pay_01JBENCH${id}`,
        status: 'SUCCEEDED',
        orderId: `ord_01JBENCH${id}`,
        productUid: 'prod_premium',
        offerUid: 'off_premium_monthly',
        subscriberUid: `sbr_${id}`,
        subscriptionUid: `sub_01JBENCH${id}`,
        currentPeriodEnd: iso(T0 + n * 1000 + 30 * 86_400_000),
        metadata: { accountKey: `user_${id}` },
        occurredAt,
      };
    } else if (kind === 2 || kind === 3) {
      // Renews the subscription bought two events earlier.
      const bought = String(n - 2).padStart(8, '0');
      event = {
        event: 'entitlement.updated',
        paymentUid: `pay_01JBENCH${bought}`,
        subscriptionUid: `sub_01JBENCH${bought}`,
        orderId: `ord_01JBRENEW${id}`,
        amountCollected: { amount: 4500, currency: 'TND' },
        currentPeriodEnd: iso(T0 + n * 1000 + 60 * 86_400_000),
        occurredAt,
      };
    } else {
      event = {
        event: 'payment.succeeded',
        paymentUid: `pay_01JBENCH${id}`,
        status: 'SUCCEEDED',
        orderId: `ord_01JBENCH${id}`,
        productUid: 'prod_credits',
        offerUid: 'off_credits_10',
        subscriberUid: `sbr_c${n % 1000}`,
        metadata: { accountKey: `buyer_${n % 1000}` },
        occurredAt,
      };
    }
    if (padTo > 0) {
      const metadata = { ...(event.metadata as object | undefined), note: '' };
      event.metadata = metadata;
      metadata.note = 'x'.repeat(Math.max(0, padTo - JSON.stringify(event).length));
    }
    const rawBody = Buffer.from(JSON.stringify(event));
    requests.push({
      rawBody,
      headers: {
        'content-type': 'application/json',
        'service-signature': signBody(rawBody, SECRET, Math.floor(signedAt.getTime() / 1000)),
      },
    });
  }
  return requests;
}
