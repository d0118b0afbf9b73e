import type { EntitlementChange } from '@dcbkit/core/store';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlStore, type SqlStore } from './connect/create-sql-store.js';
import { fromPg } from './executor/from-pg.js';
import type { SqlExecutor, SqlQueryable } from './executor/sql-executor.js';
import { migrate } from './schema/migrate.js';
import { updateInTransaction } from './store/sql-entitlement-store.js';
import { storeStatements } from './store/store-statements.js';
import { DATABASE_URL, type TestDatabase, testDatabase } from './test-support/database.js';
import { PG_VERSIONS } from './test-support/pg-versions.js';

// A connection killed by the server (pg_terminate_backend) in the middle of a transaction, after
// its write and before its COMMIT: nothing of it stays, the pool replaces the dead connection,
// and the retry succeeds.

/**
 * Wraps an executor so that, in its next transaction, the statement matching `after` is followed
 * by the server terminating that transaction's connection: deterministic, no timing involved.
 */
function killingExecutor(inner: SqlExecutor, killer: pg.Pool, after: RegExp) {
  const state = { armed: true, killed: 0 };
  const executor: SqlExecutor = {
    query: (text, params) => inner.query(text, params),
    transaction: (work) =>
      inner.transaction(async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        const pid = rows[0]?.pid;
        const killing: SqlQueryable = {
          async query(text, params) {
            const result = await tx.query(text, params);
            if (state.armed && after.test(text)) {
              state.armed = false;
              // Waits (up to 5 s) until the backend is gone.
              await killer.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
              state.killed++;
            }
            return result as never;
          },
        };
        return work(killing);
      }),
  };
  return { executor, state };
}

for (const version of PG_VERSIONS)
  describe.skipIf(!DATABASE_URL)(`a connection killed mid-transaction, on ${version.label}`, () => {
    let database: TestDatabase;
    let sqlStore: SqlStore;
    // One connection only: reusing the dead one would fail every later query.
    let appPool: pg.Pool;

    beforeAll(async () => {
      database = testDatabase('killed', {}, version.pg);
      sqlStore = createSqlStore(fromPg(database.pool), { schema: database.schema });
      await sqlStore.migrate();
      appPool = new version.pg.Pool({ connectionString: DATABASE_URL, max: 1 });
      appPool.on('error', () => {});
    });
    afterAll(async () => {
      await appPool?.end();
      await database?.drop();
    });

    it('leaves the entitlement and its facts as they were, and the retry succeeds on a fresh connection', async () => {
      const { store } = sqlStore;
      const { next: created } = await store.update(
        'user_k',
        'prod_credits',
        () => ({
          accountKey: 'user_k',
          productUid: 'prod_credits',
          offerUid: 'off_credits',
          type: 'CONSUMABLE',
          status: 'ACTIVE',
          subscriptionUid: null,
          subscriberUid: 'sbr_k',
          currentPeriodEnd: null,
          trialEndsAt: null,
          cancelAt: null,
          graceEndsAt: null,
          unitsBought: 1,
          unitsUsed: 0,
          unitAccessSeconds: null,
          unitAccessEndsAt: null,
          lastEventName: 'payment.succeeded',
          lastEventAt: '2026-11-21T12:00:00.000Z',
        }),
        { paymentUid: 'pay_1', unitOrderId: 'ord_1' },
      );
      const addUnit: EntitlementChange = (current, known) =>
        current && { ...current, unitsBought: current.unitsBought + (known.unitOrderId ? 0 : 1) };
      const secondUnit = { paymentUid: 'pay_2', unitOrderId: 'ord_2' };

      const { executor, state } = killingExecutor(
        fromPg(appPool),
        database.pool,
        /^WITH written AS \(UPDATE/,
      );
      const sql = storeStatements(sqlStore.tables);
      const addSecondUnit = (tx: SqlQueryable) =>
        updateInTransaction(tx, sql, 'user_k', 'prod_credits', addUnit, secondUnit);
      await expect(executor.transaction(addSecondUnit)).rejects.toThrow();
      expect(state.killed).toBe(1);
      // The write ran, its COMMIT never did: no partial write, neither of the record nor of its facts.
      expect(await store.get('user_k', 'prod_credits')).toEqual(created);
      expect(await store.findByPaymentUid('pay_2')).toBeUndefined();

      // The same one-connection pool, retried: the dead client was dropped, a new one serves, and
      // counts the unit the killed attempt did not record.
      await executor.transaction(addSecondUnit);
      expect((await store.get('user_k', 'prod_credits'))?.unitsBought).toBe(2);
      expect((await store.findByPaymentUid('pay_2'))?.unitsBought).toBe(2);
      // Once recorded, the order is known: a redelivery counts nothing.
      await executor.transaction(addSecondUnit);
      expect((await store.get('user_k', 'prod_credits'))?.unitsBought).toBe(2);
      const ledger = createSqlStore(fromPg(appPool), { schema: database.schema }).ledger;
      expect((await ledger.claim('after_the_kill')).status).toBe('new');
    });

    it('leaves no half-made schema when a migration is cut, and the next run applies it whole', async () => {
      const names = createSqlStore(fromPg(appPool), { schema: `${database.schema}_m` }).tables;
      // Killed right after the first table of migration 1 was created.
      const { executor, state } = killingExecutor(
        fromPg(appPool),
        database.pool,
        /^CREATE TABLE .*entitlements/,
      );
      try {
        await expect(migrate(executor, names)).rejects.toThrow();
        expect(state.killed).toBe(1);
        const { rows } = await database.pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [
          `${database.schema}_m`,
        ]);
        expect(rows).toEqual([]);
        expect((await migrate(executor, names)).applied).toEqual([
          1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
        ]);
      } finally {
        await database.pool.query(`DROP SCHEMA IF EXISTS "${database.schema}_m" CASCADE`);
      }
    });
  });
