import { describe, expect, it } from 'vitest';
import { settlePendingPayment } from '../apply/pending-payments.js';
import { memoryStore } from '../store/memory-store.js';
import { endedPaymentsOf } from './ended-payments.js';

const checkout = (paymentUid: string, expiresAt = '2030-01-01T00:30:00.000Z') => ({
  paymentUid,
  accountKey: 'acct_b',
  productUid: 'prod_full_unlock',
  offerUid: 'offer_full_unlock',
  recordedAt: '2030-01-01T00:00:00.000Z',
  expiresAt,
});

describe('checkouts that did not finish', () => {
  it('a paid one is kept and not listed as ended; failed, expired and cancelled ones are, with why, newest first', async () => {
    const store = memoryStore();
    for (const uid of ['pay_paid', 'pay_refused', 'pay_declined', 'pay_cancelled', 'pay_open']) {
      await store.recordPendingPayment(checkout(uid));
    }
    await settlePendingPayment(
      store,
      { paymentUid: 'pay_paid', status: 'SUCCEEDED' },
      new Date('2030-01-01T00:01:00Z'),
    );
    await settlePendingPayment(
      store,
      { paymentUid: 'pay_refused', status: 'EXPIRED', failureCode: 'CAT-109' },
      new Date('2030-01-01T00:31:00Z'),
    );
    await settlePendingPayment(
      store,
      { paymentUid: 'pay_declined', status: 'FAILED' },
      new Date('2030-01-01T00:02:00Z'),
    );
    await settlePendingPayment(
      store,
      { paymentUid: 'pay_declined', status: 'FAILED', failureCode: 'PAY-103' },
      new Date('2030-01-01T00:03:00Z'),
    );
    await settlePendingPayment(
      store,
      { paymentUid: 'pay_cancelled', status: 'CANCELED' },
      new Date('2030-01-01T00:04:00Z'),
    );
    const all = await store.listPendingPaymentsOfAccount('acct_b');
    expect(all.find((payment) => payment.paymentUid === 'pay_paid')?.ended?.status).toBe('SUCCEEDED');
    expect(await store.listPendingPayments({ limit: 10 })).toEqual([checkout('pay_open')]);
    const ended = endedPaymentsOf(all, new Date('2030-01-01T00:40:00Z'));
    expect(ended.map((payment) => [payment.paymentUid, payment.ended])).toEqual([
      ['pay_refused', { status: 'EXPIRED', failureCode: 'CAT-109', at: '2030-01-01T00:31:00.000Z' }],
      // Past its expiry and not read yet: expired by the clock, with no code.
      ['pay_open', { status: 'EXPIRED', at: '2030-01-01T00:30:00.000Z' }],
      ['pay_cancelled', { status: 'CANCELED', at: '2030-01-01T00:04:00.000Z' }],
      ['pay_declined', { status: 'FAILED', failureCode: 'PAY-103', at: '2030-01-01T00:02:00.000Z' }],
    ]);
    expect(endedPaymentsOf(all, new Date('2030-01-01T00:10:00Z')).map((p) => p.paymentUid)).not.toContain(
      'pay_open',
    );
  });

  it('a store without endPendingPayment forgets them, as before', async () => {
    const removed: string[] = [];
    await settlePendingPayment(
      { removePendingPayment: async (uid) => void removed.push(uid) },
      { paymentUid: 'pay_1', status: 'FAILED', failureCode: 'PAY-101' },
      new Date(),
    );
    expect(removed).toEqual(['pay_1']);
  });
});
