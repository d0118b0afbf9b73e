import { describe, expect, it } from 'vitest';
import type { MetricEntry } from '../metrics/metric-entry.js';
import { memoryStore } from '../store/memory-store.js';
import { offers } from '../test-support/fixtures.js';
import { recordCheckoutStarted, settleCheckout } from './checkout-funnel-facts.js';

const recordedAt = '2030-06-01T10:00:00.000Z';
const later = new Date('2030-06-09T10:00:00.000Z');

function funnelOn(store: ReturnType<typeof memoryStore>) {
  const recorded: MetricEntry[][] = [];
  return {
    recorded,
    funnel: {
      offers,
      keepsFacts: true,
      recordFacts: async (entries: readonly MetricEntry[]) => {
        recorded.push([...entries]);
        await store.recordMetrics(entries);
      },
    },
  };
}

async function pendingCheckout(store: ReturnType<typeof memoryStore>, paymentUid = 'pay_1') {
  await store.recordPendingPayment({
    paymentUid,
    accountKey: 'acct',
    productUid: 'prod_premium',
    offerUid: 'off_monthly',
    recordedAt,
  });
}

describe('settleCheckout', () => {
  it('records how a checkout ended on the day it started, with its start, and ends the pending payment', async () => {
    const store = memoryStore();
    const { funnel, recorded } = funnelOn(store);
    await pendingCheckout(store);
    await recordCheckoutStarted(funnel, {
      paymentUid: 'pay_1',
      offerUid: 'off_monthly',
      productUid: 'prod_premium',
      recordedAt,
    });
    const payment = { paymentUid: 'pay_1', status: 'FAILED' } as const;
    let reads = 0;
    const readFailureCode = async () => {
      reads++;
      return 'PAY-103';
    };
    await settleCheckout(store, funnel, { payment, accountKey: 'acct', readFailureCode }, later);
    expect(
      recorded[1]?.map(({ key, kind, occurredAt, detail }) => ({ key, kind, occurredAt, detail })),
    ).toEqual([
      { key: 'checkout:pay_1', kind: 'checkout_started', occurredAt: recordedAt, detail: undefined },
      { key: 'checkout_end:pay_1', kind: 'checkout_failed', occurredAt: recordedAt, detail: 'PAY-103' },
    ]);
    const [kept] = await store.listPendingPaymentsOfAccount('acct');
    expect(kept?.ended).toMatchObject({ status: 'FAILED', failureCode: 'PAY-103' });
    // Told again (a later read, a redelivery): the checkout has ended, nothing more is read or recorded.
    await settleCheckout(store, funnel, { payment, accountKey: 'acct', readFailureCode }, later);
    expect(reads).toBe(1);
    expect(recorded).toHaveLength(2);
    const { days } = await store.readMetricDays({ from: '2030-06-01', to: '2030-06-10' });
    expect(
      days
        .map(({ day, kind, detail, count }) => ({ day, kind, detail, count }))
        .sort((a, b) => a.kind.localeCompare(b.kind)),
    ).toEqual([
      { day: '2030-06-01', kind: 'checkout_failed', detail: 'PAY-103', count: 1 },
      { day: '2030-06-01', kind: 'checkout_started', detail: undefined, count: 1 },
    ]);
  });

  it('counts a failure without a code when the read fails, and leaves out a payment the kit never recorded', async () => {
    const store = memoryStore();
    const { funnel, recorded } = funnelOn(store);
    await pendingCheckout(store);
    const failing = async () => {
      throw new Error('service down');
    };
    await settleCheckout(
      store,
      funnel,
      { payment: { paymentUid: 'pay_1', status: 'FAILED' }, accountKey: 'acct', readFailureCode: failing },
      later,
    );
    expect(recorded[0]?.[1]).toMatchObject({ kind: 'checkout_failed', detail: 'none' });
    await settleCheckout(
      store,
      funnel,
      { payment: { paymentUid: 'pay_elsewhere', status: 'SUCCEEDED' }, accountKey: 'acct' },
      later,
    );
    await settleCheckout(
      store,
      funnel,
      { payment: { paymentUid: 'pay_1', status: 'SUCCEEDED' }, accountKey: undefined },
      later,
    );
    expect(recorded).toHaveLength(1);
  });

  it('records nothing while the payment is open, and nothing when the funnel is not recorded', async () => {
    const store = memoryStore();
    const { funnel, recorded } = funnelOn(store);
    await pendingCheckout(store);
    await settleCheckout(
      store,
      funnel,
      { payment: { paymentUid: 'pay_1', status: 'PROCESSING' }, accountKey: 'acct' },
      later,
    );
    expect(recorded).toEqual([]);
    await pendingCheckout(store);
    await settleCheckout(
      store,
      { offers, recordFacts: undefined },
      { payment: { paymentUid: 'pay_1', status: 'SUCCEEDED' }, accountKey: 'acct' },
      later,
    );
    expect((await store.listPendingPaymentsOfAccount('acct'))[0]?.ended?.status).toBe('SUCCEEDED');
  });

  it('restates no start when the facts are only counted (no store keeps them): the counter would count it twice', async () => {
    const store = memoryStore();
    const told: MetricEntry[] = [];
    await pendingCheckout(store);
    const countedOnly = {
      offers,
      recordFacts: async (entries: readonly MetricEntry[]) => void told.push(...entries),
    };
    await settleCheckout(
      store,
      countedOnly,
      { payment: { paymentUid: 'pay_1', status: 'SUCCEEDED' }, accountKey: 'acct' },
      later,
    );
    expect(told.map((entry) => entry.kind)).toEqual(['checkout_succeeded']);
  });
});
