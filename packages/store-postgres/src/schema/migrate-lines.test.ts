import { exampleEntitlement } from '@dcbkit/core/store';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlStore } from '../connect/create-sql-store.js';
import { fromPg } from '../executor/from-pg.js';
import { fromPglite } from '../executor/from-pglite.js';
import type { SqlExecutor } from '../executor/sql-executor.js';
import { storeStatements } from '../store/store-statements.js';
import { DATABASE_URL, type TestDatabase, testDatabase, uniqueSchema } from '../test-support/database.js';
import { openPglite } from '../test-support/pglite.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations.js';

// Version 10 finds a line's entitlements across accounts from an index on the record's own
// subscriberUid: rows written by version 9 are found as they are, and the history names the line.

async function upgradesToVersion10(executor: SqlExecutor, schema: string): Promise<void> {
  const { store, tables } = createSqlStore(executor, { schema });
  const upToVersion9 = MIGRATIONS.filter((migration) => migration.version <= 9);
  expect((await migrate(executor, tables, upToVersion9)).applied).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  // Written by version 9: two accounts on one line, one on another, one with no line.
  const rows = [
    exampleEntitlement({ accountKey: 'acct_b', subscriberUid: 'sbr_shared', subscriptionUid: 'sub_b' }),
    exampleEntitlement({ accountKey: 'acct_a', subscriberUid: 'sbr_shared', subscriptionUid: 'sub_a' }),
    exampleEntitlement({ accountKey: 'acct_c', subscriberUid: 'sbr_other', subscriptionUid: 'sub_c' }),
    exampleEntitlement({ accountKey: 'acct_d', subscriberUid: null, subscriptionUid: null }),
  ];
  for (const row of rows) {
    await executor.query(
      `INSERT INTO ${tables.entitlements} (account_key, product_uid, subscription_uid, data) VALUES ($1, $2, $3, $4::text::jsonb)`,
      [row.accountKey, row.productUid, row.subscriptionUid, JSON.stringify(row)],
    );
  }
  expect((await migrate(executor, tables)).applied).toEqual([10, 11, 12, 13, 14, 15]);

  const line = await store.listBySubscriberUid('sbr_shared');
  expect(line.map((entitlement) => entitlement.accountKey)).toEqual(['acct_a', 'acct_b']);
  expect(line[0]).toEqual(rows[1]);

  // The index can serve the lookup: with the other ways forbidden, the plan scans it.
  const plan = await executor.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off');
    const { rows: lines } = await tx.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN ${storeStatements(tables).byLine}`,
      ['sbr_shared'],
    );
    return lines.map((planLine) => planLine['QUERY PLAN']).join('\n');
  });
  expect(plan).toContain('entitlements_line_idx');

  // A history entry keeps the line it names, and one that names none reads back without it.
  const entry = {
    recordedAt: '2030-01-01T00:00:00.000Z',
    accountKey: 'acct_a',
    productUid: 'prod_premium',
    source: 'webhook' as const,
    decision: 'line_pays_twice' as const,
    eventName: 'payment.succeeded',
    eventKey: 'key_1',
    occurredAt: '2030-01-01T00:00:00.000Z',
    paymentUid: 'pay_b',
    subscriptionUid: 'sub_a',
    statusBefore: 'ACTIVE' as const,
    statusAfter: 'ACTIVE' as const,
    unitsBefore: null,
    unitsAfter: null,
  };
  await store.appendHistory({ ...entry, subscriberUid: 'sbr_shared' });
  await store.appendHistory({ ...entry, decision: 'applied', eventKey: 'key_2' });
  expect(await store.listHistory({ accountKey: 'acct_a', limit: 5 })).toEqual([
    { ...entry, decision: 'applied', eventKey: 'key_2' },
    { ...entry, subscriberUid: 'sbr_shared' },
  ]);
}

describe.skipIf(!DATABASE_URL)('migration 10 on PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(() => {
    database = testDatabase('migrate_lines');
  });
  afterAll(() => database?.drop());

  it("finds version 9 rows by their line, from the index, and keeps a history entry's line", () =>
    upgradesToVersion10(fromPg(database.pool), database.schema));
});

describe('migration 10 on PGlite', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await openPglite();
  }, 60_000);
  afterAll(() => db?.close());

  it("finds version 9 rows by their line, from the index, and keeps a history entry's line", () =>
    upgradesToVersion10(fromPglite(db), uniqueSchema('migrate_lines')));
});
