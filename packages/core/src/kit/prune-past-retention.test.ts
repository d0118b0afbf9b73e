import { describe, expect, it } from 'vitest';
import { settlePendingPayment } from '../apply/pending-payments.js';
import type { DcbClient } from '../client/create-client.js';
import type { ReconcileReport } from '../reconcile/reconcile-report.js';
import { memoryStore } from '../store/memory-store.js';
import { offers, SECRET } from '../test-support/fixtures.js';
import { createDcbKit } from './create-dcb-kit.js';
import { prunePastRetention } from './prune-past-retention.js';

const DAY_MS = 86_400_000;
const NOW = new Date('2030-06-01T00:00:00.000Z');

const checkout = (paymentUid: string) => ({
  paymentUid,
  accountKey: 'acct_p',
  productUid: 'prod_full_unlock',
  offerUid: 'offer_full_unlock',
  recordedAt: '2030-01-01T00:00:00.000Z',
});

describe('the running reconciler forgets what is older than the retention', () => {
  it('removes the checkouts that ended before it, by the kit clock, and keeps newer and open ones', async () => {
    const store = memoryStore();
    for (const uid of ['pay_old_refused', 'pay_old_paid', 'pay_recent', 'pay_open']) {
      await store.recordPendingPayment(checkout(uid));
    }
    await settlePendingPayment(
      store,
      { paymentUid: 'pay_old_refused', status: 'FAILED', failureCode: 'CAT-109' },
      daysBefore(NOW, 91),
    );
    await settlePendingPayment(
      store,
      { paymentUid: 'pay_old_paid', status: 'SUCCEEDED' },
      daysBefore(NOW, 90.5),
    );
    await settlePendingPayment(store, { paymentUid: 'pay_recent', status: 'EXPIRED' }, daysBefore(NOW, 89));
    const debug: unknown[] = [];
    await prunePastRetention({
      history: undefined,
      store,
      retentionMs: 90 * DAY_MS,
      now: () => NOW,
      logger: { debug: (fields) => debug.push(fields) },
    });
    expect((await store.listPendingPaymentsOfAccount('acct_p')).map((payment) => payment.paymentUid)).toEqual(
      ['pay_open', 'pay_recent'],
    );
    expect(debug).toEqual([{ removed: 2 }]);
  });

  it('prunes the history by the real clock, and leaves a store without pruneEndedPayments alone', async () => {
    const { pruneEndedPayments: _prune, ...store } = memoryStore();
    const entry = {
      accountKey: 'acct_p',
      productUid: 'prod_full_unlock',
      source: 'webhook' as const,
      decision: 'applied' as const,
      eventName: 'payment.succeeded',
      eventKey: null,
      occurredAt: null,
      paymentUid: null,
      subscriptionUid: null,
      statusBefore: null,
      statusAfter: 'ACTIVE' as const,
      unitsBefore: null,
      unitsAfter: null,
    };
    await store.appendHistory({ ...entry, recordedAt: new Date(Date.now() - 3 * DAY_MS).toISOString() });
    await store.appendHistory({ ...entry, recordedAt: new Date().toISOString() });
    await store.recordPendingPayment(checkout('pay_ended'));
    await settlePendingPayment(store, { paymentUid: 'pay_ended', status: 'FAILED' }, daysBefore(NOW, 400));
    await prunePastRetention({ history: store, store, retentionMs: DAY_MS, now: () => NOW, logger: {} });
    expect(await store.listHistory({ accountKey: 'acct_p', limit: 10 })).toHaveLength(1);
    expect(await store.listPendingPaymentsOfAccount('acct_p')).toHaveLength(1);
  });
});

function daysBefore(date: Date, days: number): Date {
  return new Date(date.getTime() - days * DAY_MS);
}

describe('kit.startReconciler', () => {
  it('prunes the ended checkouts past historyRetentionDays after its run; kit.reconcile alone does not', async () => {
    const store = memoryStore();
    const kit = createDcbKit({
      client: {
        // Nothing is due and no payment is open: a run reads nothing.
        payments: { retrieve: async () => Promise.reject(new Error('not read')) },
        subscriptions: { retrieve: async () => Promise.reject(new Error('not read')) },
        checkConnection: async () => {},
      } as unknown as DcbClient,
      webhookSecrets: SECRET,
      offers,
      store,
      logger: {},
      now: () => NOW,
      historyRetentionDays: 30,
    });
    for (const uid of ['pay_old', 'pay_recent']) await store.recordPendingPayment(checkout(uid));
    await settlePendingPayment(store, { paymentUid: 'pay_old', status: 'FAILED' }, daysBefore(NOW, 31));
    await settlePendingPayment(store, { paymentUid: 'pay_recent', status: 'FAILED' }, daysBefore(NOW, 29));
    const kept = async () =>
      (await store.listPendingPaymentsOfAccount('acct_p')).map((payment) => payment.paymentUid);
    await kit.reconcile();
    expect(await kept()).toEqual(['pay_old', 'pay_recent']);
    let reconciler: { stop(): Promise<void> } | undefined;
    // A run's report comes once its pruning is done.
    await new Promise<ReconcileReport>((resolve) => {
      reconciler = kit.startReconciler({ everyMs: 3_600_000, onReport: resolve });
    });
    await reconciler?.stop();
    expect(await kept()).toEqual(['pay_recent']);
  });
});
