import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlStore, type SqlStore } from '../connect/create-sql-store.js';
import { fromPg } from '../executor/from-pg.js';
import { buyUnit as buyUnitOf, noCredits } from '../test-support/buy-unit.js';
import { DATABASE_URL, type TestDatabase, testDatabase } from '../test-support/database.js';
import { updateInTransaction } from './sql-entitlement-store.js';
import { storeStatements } from './store-statements.js';

// The locked path on its own (update reaches it only after optimistic conflicts): transactions
// queued on one row lock must each see the facts the one before them committed.

const ORDERS = 20;

const blank = noCredits('user_locked');
const buyUnit = buyUnitOf(blank);

describe.skipIf(!DATABASE_URL)('updateInTransaction on PostgreSQL', () => {
  let database: TestDatabase;
  let sqlStore: SqlStore;
  beforeAll(async () => {
    database = testDatabase('locked_update', { max: 2 * ORDERS });
    sqlStore = createSqlStore(fromPg(database.pool), { schema: database.schema });
    await sqlStore.migrate();
  });
  afterAll(() => database?.drop());

  it('counts each order once when its deliveries wait on the same row lock, from creation on', async () => {
    const sql = storeStatements(sqlStore.tables);
    const orders = Array.from({ length: ORDERS }, (_, i) => `ord_${i}`);
    // Each order twice at once, the entitlement missing at first: the inserts race, then the locks queue.
    await Promise.all(
      [...orders, ...orders].map((orderId) =>
        sqlStore.executor.transaction((tx) =>
          updateInTransaction(tx, sql, blank.accountKey, blank.productUid, buyUnit, {
            paymentUid: `pay_${orderId}`,
            unitOrderId: orderId,
          }),
        ),
      ),
    );
    expect((await sqlStore.store.get(blank.accountKey, blank.productUid))?.unitsBought).toBe(ORDERS);
    const { rows } = await sqlStore.executor.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${sqlStore.tables.entitlementUnits}`,
    );
    expect(rows).toEqual([{ n: ORDERS }]);
    expect((await sqlStore.store.findByPaymentUid('pay_ord_0'))?.unitsBought).toBe(ORDERS);
  });
});
