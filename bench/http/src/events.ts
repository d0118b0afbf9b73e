import { signWebhook } from '@dcbkit/core';

export const SECRET = 'whsec_bench_http_0123456789';

export const OFFERS = [
  {
    offerUid: 'offer_unlock',
    productUid: 'prod_unlock',
    name: 'Unlock',
    type: 'NON_CONSUMABLE' as const,
    price: { amount: 15000, currency: 'TND' },
  },
];

/** Distinct signed events: each request a new event for a new account, as a real burst would be. */
export function signedEvents(count: number): Array<{ body: string; signature: string }> {
  const occurredAt = new Date().toISOString();
  const timestamp = Math.floor(Date.now() / 1000);
  return Array.from({ length: count }, (_, i) => {
    const body = JSON.stringify({
      event: 'payment.succeeded',
      paymentUid: `pay_bench_${i}`,
      status: 'SUCCEEDED',
      orderId: `ord_bench_${i}`,
      productUid: 'prod_unlock',
      offerUid: 'offer_unlock',
      subscriberUid: `sbr_${i}`,
      metadata: { accountKey: `user_${i}` },
      occurredAt,
    });
    return { body, signature: signWebhook({ payload: body, secret: SECRET, timestamp }) };
  });
}
