import { onceChecks } from '@dcbkit/core/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlStore } from '../connect/create-sql-store.js';
import { postgresStore } from '../connect/postgres-store.js';
import { keyHash } from '../ledger/key-hash.js';
import { DATABASE_URL, type TestDatabase, testDatabase } from '../test-support/database.js';
import { noDeferredWrites } from './deferred-writes.js';
import { storeInTransaction } from './sql-entitlement-store.js';
import { storeStatements } from './store-statements.js';

// The once suite is only worth running if it catches broken stores: these are broken on purpose,
// each on the real tables, and each fails a check the real store passes.

type Subject = SqlStore['store'];

function check(name: string) {
  const found = onceChecks.find((one) => one.name.includes(name));
  if (!found) throw new Error(`no once check named like "${name}"`);
  return found;
}

describe.skipIf(!DATABASE_URL)('the once conformance suite', () => {
  let database: TestDatabase;
  let sqlStore: SqlStore;
  beforeAll(async () => {
    database = testDatabase('once_broken');
    sqlStore = postgresStore({ pool: database.pool, schema: database.schema });
    await sqlStore.migrate();
  });
  afterAll(() => database?.drop());

  // Bound to the transaction, history and payment endings written at once (not deferred).
  const bind = (tx: Parameters<typeof storeInTransaction>[0]) => {
    const writes = noDeferredWrites();
    const store = storeInTransaction(tx, sqlStore.tables, storeStatements(sqlStore.tables), writes);
    return { ...store, appendHistory: sqlStore.store.appendHistory };
  };

  /** Claims in the ledger first, committed on its own, then works in a transaction: a crash keeps the claim. */
  function claimBeforeTransaction(): Subject {
    const { ledger, executor, store } = sqlStore;
    return {
      ...store,
      async applyOnce(key, work) {
        const claim = await ledger.claim(key);
        if (claim.status !== 'new') return { status: claim.status };
        const done = await executor.transaction((tx) => work(bind(tx)));
        if (!done.keep) {
          await ledger.release(key, claim.token);
          return { status: 'rolled_back', value: done.value };
        }
        await ledger.complete(key, claim.token);
        return { status: 'applied', value: done.value, token: claim.token };
      },
    };
  }

  /** Looks for the key, then works, then records it: two copies at once both find nothing and both work. */
  function lookThenWork(): Subject {
    const { executor, store, tables } = sqlStore;
    return {
      ...store,
      async applyOnce(key, work) {
        const hash = keyHash(key);
        const seen = await executor.query(
          `SELECT 1 FROM ${tables.events} WHERE key_hash = decode($1, 'hex')`,
          [hash],
        );
        if (seen.rows.length > 0) return { status: 'duplicate' };
        return executor.transaction(async (tx) => {
          const done = await work(bind(tx));
          await tx.query(
            `INSERT INTO ${tables.events} (key_hash, event_key, state, completed_at, claim_token)
              VALUES (decode($1, 'hex'), $2, 'completed', now(), 't') ON CONFLICT DO NOTHING`,
            [hash, key],
          );
          return { status: 'applied' as const, value: done.value, token: 't' };
        });
      },
    };
  }

  /** Right in every way but one: a copy's history entry is never written. */
  function forgetsCopies(): Subject {
    const { store } = sqlStore;
    return {
      ...store,
      applyOnce: (key, work, options) => store.applyOnce(key, work, { timeoutMs: options.timeoutMs }),
    };
  }

  it('catches a store that claims outside the transaction (a crash keeps the key)', async () => {
    const crash = check('crash before the commit');
    await expect(crash.run(claimBeforeTransaction())).rejects.toThrow();
    await expect(crash.run(sqlStore.store)).resolves.toBeUndefined();
  });

  it('catches a store whose copies at once both work', async () => {
    const race = check('two deliveries of one key at once');
    await expect(race.run(lookThenWork())).rejects.toThrow();
    await expect(race.run(sqlStore.store)).resolves.toBeUndefined();
  });

  it('catches a store that leaves a copy out of the history', async () => {
    const copies = check('a duplicate given its entry');
    await expect(copies.run(forgetsCopies())).rejects.toThrow();
    await expect(copies.run(sqlStore.store)).resolves.toBeUndefined();
  });
});
