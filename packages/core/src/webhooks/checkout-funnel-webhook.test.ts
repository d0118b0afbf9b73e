import { describe, expect, it } from 'vitest';
import { paymentFixture } from '../client/test-support/fixtures.js';
import { memoryLedger } from '../ledger/memory-ledger.js';
import { checkoutFunnel } from '../metrics/checkout-funnel.js';
import { memoryStore } from '../store/memory-store.js';
import { at, NOW, offers, paymentEvent, SECRET, signedRequest, T0 } from '../test-support/fixtures.js';
import { createWebhookHandler } from './create-webhook-handler.js';

const recordedAt = at(-10);

async function failedCheckoutFunnel(readCode: () => Promise<string | undefined>) {
  const store = memoryStore();
  await store.recordPendingPayment({
    paymentUid: 'pay_1',
    accountKey: 'user_1',
    productUid: 'prod_unlock',
    offerUid: 'off_unlock',
    recordedAt,
  });
  const reads: string[] = [];
  const handler = createWebhookHandler({
    secrets: SECRET,
    store,
    ledger: memoryLedger(),
    offers,
    logger: {},
    now: () => NOW,
    payments: {
      // Only the code matters here: the rest of the payment is not read.
      retrieve: async (paymentUid: string) => {
        reads.push(paymentUid);
        const failureCode = await readCode();
        return {
          ...paymentFixture({ paymentUid, status: 'FAILED' }),
          ...(failureCode ? { failureCode } : {}),
        };
      },
    },
  });
  const failed = paymentEvent('payment.failed', 0, 'off_unlock');
  for (let copy = 0; copy < 2; copy++) expect((await handler(signedRequest(failed))).status).toBe(200);
  const { days } = await store.readMetricDays({ from: '2026-11-01', to: '2026-12-01' });
  const query = { from: new Date(T0), to: new Date(T0 + 86_400_000), interval: 'day' as const };
  const [row] = checkoutFunnel(query, days, offers.list).rows.filter((one) => one.offerUid === 'off_unlock');
  const [pending] = await store.listPendingPaymentsOfAccount('user_1');
  return { row, reads, ended: pending?.ended };
}

describe('payment.failed ends a checkout of the funnel', () => {
  it('with the code the payment’s read gives (the event has none), read once, kept with the ending too', async () => {
    const { row, reads, ended } = await failedCheckoutFunnel(async () => 'PAY-101');
    expect(row).toMatchObject({ started: 1, failed: { 'PAY-101': 1 }, pending: 0 });
    expect(reads).toEqual(['pay_1']);
    expect(ended).toMatchObject({ status: 'FAILED', failureCode: 'PAY-101' });
  });

  it('as a refusal when the code says the line cannot pay, and under none when the read fails', async () => {
    expect((await failedCheckoutFunnel(async () => 'CAT-109')).row).toMatchObject({
      refused: { 'CAT-109': 1 },
    });
    const unread = await failedCheckoutFunnel(async () => {
      throw new Error('service unavailable');
    });
    expect(unread.row).toMatchObject({ started: 1, failed: { none: 1 }, pending: 0 });
  });
});
