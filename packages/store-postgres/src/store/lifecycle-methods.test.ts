import type { MetricEntry } from '@dcbkit/core/store';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlStore } from '../connect/create-sql-store.js';
import { pgliteStore } from '../connect/pglite-store.js';
import { uniqueSchema } from '../test-support/database.js';
import { openPglite } from '../test-support/pglite.js';

/** A subscription's first paid fact, as metricEntriesOf makes it. */
function paid(subscriptionUid: string, occurredAt: string): MetricEntry {
  return {
    key: `period:${subscriptionUid}:first`,
    kind: 'new_subscription',
    offerUid: 'offer_premium_monthly_paid',
    productUid: 'prod_premium',
    occurredAt,
    count: 1,
    amount: 4500,
    currency: 'TND',
    live: 1,
    subscriptionUid,
    accountKey: 'user_1',
    monthlyValue: 4500,
  };
}

// The one-transaction path hands the event's facts to applyOnce, not to recordMetrics: their
// lifecycle records are merged in the same transaction, and a rolled back attempt leaves none.
describe('lifecycle records on the one-transaction path', () => {
  let db: PGlite;
  let sqlStore: SqlStore;
  beforeAll(async () => {
    db = await openPglite();
    sqlStore = await pgliteStore({ db, schema: uniqueSchema('lifecycle_once') });
  }, 60_000);
  afterAll(() => db?.close());

  it('are written with the facts an applied event hands back, and not by a rolled back one', async () => {
    const { store } = sqlStore;
    const kept = paid('sub_kept', '2030-01-05T10:00:00.000Z');
    const dropped = paid('sub_dropped', '2030-01-05T11:00:00.000Z');
    const options = { timeoutMs: 5_000 };
    const applied = await store.applyOnce(
      'evt_kept',
      async () => ({ keep: true, value: 1, facts: [kept] }),
      options,
    );
    expect(applied.status).toBe('applied');
    await store.applyOnce('evt_dropped', async () => ({ keep: false, value: 1, facts: [dropped] }), options);
    const moves = await store.readRevenueMoves({ from: '2030-01-01', to: '2030-02-01' });
    expect(moves.days).toEqual([
      {
        day: '2030-01-05',
        offerUid: 'offer_premium_monthly_paid',
        productUid: 'prod_premium',
        currency: 'TND',
        kind: 'new',
        subscriptions: 1,
        monthlyValue: 4500,
      },
    ]);
  });
});
