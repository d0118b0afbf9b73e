import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlStore } from '../connect/create-sql-store.js';
import { fromPg } from '../executor/from-pg.js';
import { fromPglite } from '../executor/from-pglite.js';
import type { SqlQueryable } from '../executor/sql-executor.js';
import { DATABASE_URL, type TestDatabase, testDatabase, uniqueSchema } from '../test-support/database.js';
import { openPglite } from '../test-support/pglite.js';
import { LATEST_VERSION } from './migrations.js';

async function tablesIn(executor: SqlQueryable, schema: string): Promise<string[]> {
  const { rows } = await executor.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
    [schema],
  );
  return rows.map((row) => row.table_name);
}

describe.skipIf(!DATABASE_URL)('migrate on PostgreSQL', () => {
  const databases: TestDatabase[] = [];
  afterAll(() => Promise.all(databases.map((database) => database.drop())));

  it('creates the schema and tables once, then does nothing', async () => {
    const database = testDatabase('migrate');
    databases.push(database);
    const { migrate } = createSqlStore(fromPg(database.pool), { schema: database.schema });
    expect(await migrate()).toEqual({
      applied: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
      version: LATEST_VERSION,
    });
    expect(await migrate()).toEqual({ applied: [], version: LATEST_VERSION });
    expect(await tablesIn(fromPg(database.pool), database.schema)).toEqual([
      'dcbkit_entitlement_payments',
      'dcbkit_entitlement_units',
      'dcbkit_entitlements',
      'dcbkit_events',
      'dcbkit_history',
      'dcbkit_locks',
      'dcbkit_metric_days',
      'dcbkit_metric_keys',
      'dcbkit_migrations',
      'dcbkit_pending_payments',
      'dcbkit_subscription_lifecycles',
    ]);
  });

  it('is safe from 6 instances at once: one applies, the others wait and find nothing to do', async () => {
    const database = testDatabase('migrate_race');
    databases.push(database);
    // Six pools: six separate sessions, as six instances booting together would have.
    const pools = Array.from({ length: 6 }, () => new pg.Pool({ connectionString: DATABASE_URL, max: 1 }));
    try {
      const results = await Promise.all(
        pools.map((pool) => createSqlStore(fromPg(pool), { schema: database.schema }).migrate()),
      );
      expect(results.filter((result) => result.applied.length > 0)).toEqual([
        { applied: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], version: LATEST_VERSION },
      ]);
      const { rows } = await database.pool.query(
        `SELECT version FROM "${database.schema}".dcbkit_migrations`,
      );
      expect(rows).toEqual([
        { version: 1 },
        { version: 2 },
        { version: 3 },
        { version: 4 },
        { version: 5 },
        { version: 6 },
        { version: 7 },
        { version: 8 },
        { version: 9 },
        { version: 10 },
        { version: 11 },
        { version: 12 },
        { version: 13 },
        { version: 14 },
        { version: 15 },
      ]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('keeps two prefixes in one schema apart', async () => {
    const database = testDatabase('migrate_prefix');
    databases.push(database);
    const one = createSqlStore(fromPg(database.pool), { schema: database.schema, tablePrefix: 'one_' });
    const two = createSqlStore(fromPg(database.pool), { schema: database.schema, tablePrefix: 'two_' });
    await Promise.all([one.migrate(), two.migrate()]);
    expect(await tablesIn(fromPg(database.pool), database.schema)).toEqual([
      'one_entitlement_payments',
      'one_entitlement_units',
      'one_entitlements',
      'one_events',
      'one_history',
      'one_locks',
      'one_metric_days',
      'one_metric_keys',
      'one_migrations',
      'one_pending_payments',
      'one_subscription_lifecycles',
      'two_entitlement_payments',
      'two_entitlement_units',
      'two_entitlements',
      'two_events',
      'two_history',
      'two_locks',
      'two_metric_days',
      'two_metric_keys',
      'two_migrations',
      'two_pending_payments',
      'two_subscription_lifecycles',
    ]);
    expect((await one.ledger.claim('evt')).status).toBe('new');
    expect((await two.ledger.claim('evt')).status).toBe('new');
  });

  it('is all or nothing: a failing step leaves no table behind, and the next run applies', async () => {
    const database = testDatabase('migrate_atomic');
    databases.push(database);
    const sqlStore = createSqlStore(fromPg(database.pool), { schema: database.schema });
    // The schema exists and already holds a table the migration creates: step 1 fails midway.
    await database.pool.query(`CREATE SCHEMA "${database.schema}"`);
    await database.pool.query(`CREATE TABLE "${database.schema}".dcbkit_events (x int)`);
    await expect(sqlStore.migrate()).rejects.toThrow(/dcbkit_events/);
    expect(await tablesIn(fromPg(database.pool), database.schema)).toEqual(['dcbkit_events']);
    await database.pool.query(`DROP TABLE "${database.schema}".dcbkit_events`);
    expect((await sqlStore.migrate()).applied).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
  });
});

describe('migrate on PGlite', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await openPglite();
  }, 60_000);
  afterAll(() => db?.close());

  it('runs the same migrations, once', async () => {
    const schema = uniqueSchema('migrate');
    const { migrate } = createSqlStore(fromPglite(db), { schema });
    expect(await migrate()).toEqual({
      applied: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
      version: LATEST_VERSION,
    });
    expect(await migrate()).toEqual({ applied: [], version: LATEST_VERSION });
    expect(await tablesIn(fromPglite(db), schema)).toEqual([
      'dcbkit_entitlement_payments',
      'dcbkit_entitlement_units',
      'dcbkit_entitlements',
      'dcbkit_events',
      'dcbkit_history',
      'dcbkit_locks',
      'dcbkit_metric_days',
      'dcbkit_metric_keys',
      'dcbkit_migrations',
      'dcbkit_pending_payments',
      'dcbkit_subscription_lifecycles',
    ]);
  });

  it('creates every table and index under its full name with the longest prefix accepted', async () => {
    const schema = uniqueSchema('migrate_long');
    // 63 bytes with the longest suffix: one more character is refused (see table-names.ts).
    const tablePrefix = `${'p'.repeat(33)}_`;
    await createSqlStore(fromPglite(db), { schema, tablePrefix }).migrate();
    const { rows } = await db.query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 ORDER BY c.relname`,
      [schema],
    );
    // Truncated at 63 bytes, a name would lose the end of its suffix.
    expect(rows.map((row) => row.relname.slice(tablePrefix.length))).toEqual([
      'entitlement_payments',
      'entitlement_payments_pkey',
      'entitlement_units',
      'entitlement_units_pkey',
      'entitlements',
      'entitlements_due_deadline_idx',
      'entitlements_due_heard_idx',
      'entitlements_line_idx',
      'entitlements_pkey',
      'entitlements_subscription_idx',
      'events',
      'events_completed_idx',
      'events_lease_idx',
      'events_pkey',
      'history',
      'history_account_idx',
      'history_id_seq',
      'history_pkey',
      'history_recorded_idx',
      'lifecycles_cohort_idx',
      'lifecycles_ended_idx',
      'lifecycles_paid_idx',
      'lifecycles_subscriber_idx',
      'lifecycles_trial_idx',
      'locks',
      'locks_pkey',
      'metric_days',
      'metric_days_pkey',
      'metric_keys',
      'metric_keys_pkey',
      'migrations',
      'migrations_pkey',
      'pending_payments',
      'pending_payments_account_idx',
      'pending_payments_ended_idx',
      'pending_payments_pkey',
      'subscription_lifecycles',
      'subscription_lifecycles_pkey',
    ]);
  });
});
