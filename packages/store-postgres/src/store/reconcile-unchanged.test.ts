import { type DcbClient, memoryStore, reconcile, type Subscription } from '@dcbkit/core';
import { type EntitlementStore, exampleEntitlement, type ReconcileStore, uniqueId } from '@dcbkit/core/store';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlStore } from '../connect/create-sql-store.js';
import { pgliteStore } from '../connect/pglite-store.js';
import { postgresStore } from '../connect/postgres-store.js';
import { DATABASE_URL, type TestDatabase, testDatabase, uniqueSchema } from '../test-support/database.js';
import { offers } from '../test-support/event-stream.js';
import { openPglite } from '../test-support/pglite.js';

// A read that finds the entitlement as the store holds it changes nothing, and the report says so
// on every built-in store: a SQL store gives a record's keys in its own order.

const NOW = new Date('2030-02-01T00:00:00.000Z');

async function confirmsUnchanged(store: EntitlementStore & ReconcileStore): Promise<void> {
  const accountKey = uniqueId('acct');
  const subscriptionUid = uniqueId('sub');
  // Running, last heard of long ago: due for a read by age.
  const held = exampleEntitlement({
    accountKey,
    productUid: 'prod_premium',
    offerUid: 'off_monthly',
    subscriptionUid,
    status: 'ACTIVE',
    currentPeriodEnd: '2030-02-20T00:00:00.000Z',
    trialEndsAt: null,
    lastEventName: 'entitlement.granted',
    lastEventAt: '2030-01-01T00:00:00.000Z',
  });
  await store.update(accountKey, 'prod_premium', () => held);
  const read: Subscription = {
    subscriptionUid,
    status: 'ACTIVE',
    productUid: 'prod_premium',
    offerUid: 'off_monthly',
    subscriberUid: held.subscriberUid ?? 'sbr_1',
    currentPeriodEnd: '2030-02-20T00:00:00.000Z',
    cancelAt: null,
  };
  const client = {
    subscriptions: { retrieve: async () => read },
    payments: { retrieve: async () => Promise.reject(new Error('no payment read expected')) },
  } as unknown as Pick<DcbClient, 'payments' | 'subscriptions'>;
  const report = await reconcile({
    client,
    store,
    offers,
    now: () => NOW,
    maxAgeMs: 86_400_000,
    maxChecks: 1000,
  });
  const mine = report.changes.filter((change) => change.accountKey === accountKey);
  expect(mine).toEqual([]);
  expect(report.unchanged).toBeGreaterThanOrEqual(1);
  expect(report.failures).toEqual([]);
}

describe('a reconcile that confirms an entitlement reports it unchanged', () => {
  it('on memoryStore', () => confirmsUnchanged(memoryStore()));

  describe('on PGlite', () => {
    let db: PGlite;
    let sqlStore: SqlStore;
    beforeAll(async () => {
      db = await openPglite();
      sqlStore = await pgliteStore({ db, schema: uniqueSchema('unchanged') });
    }, 60_000);
    afterAll(() => db?.close());
    it('as well', () => confirmsUnchanged(sqlStore.store));
  });

  describe.skipIf(!DATABASE_URL)('on PostgreSQL', () => {
    let database: TestDatabase;
    let sqlStore: SqlStore;
    beforeAll(async () => {
      database = testDatabase('unchanged');
      sqlStore = postgresStore({ pool: database.pool, schema: database.schema });
      await sqlStore.migrate();
    });
    afterAll(() => database?.drop());
    it('as well', () => confirmsUnchanged(sqlStore.store));
  });
});
