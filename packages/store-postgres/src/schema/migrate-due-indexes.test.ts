import type { Entitlement } from '@dcbkit/core';
import {
  dueReason,
  type EntitlementKey,
  exampleEntitlement,
  isLiveSubscription,
  reconcileDeadline,
} from '@dcbkit/core/store';
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
import type { TableNames } from './table-names.js';

// Version 6 serves the due listing from indexes that hold the paging key: a database written by
// version 5 upgrades in place and lists the same entitlements, page by page, as version 5 did.

const NOW = new Date('2030-06-01T00:00:00.000Z');
const at = (days: number) => new Date(NOW.getTime() + days * 86_400_000).toISOString();
const PREFIX = 'due6_';

/** The due query as version 5 ran it, on the tables as they are ($1 to $5 as the store's). */
function version5Due(t: TableNames): string {
  const heard = 'GREATEST(last_event_at, reconciled_at)';
  return `SELECT data FROM ${t.entitlements}
      WHERE live_subscription
        AND ((deadline_at <= $1::timestamptz AND (${heard} IS NULL OR ${heard} < deadline_at))
          OR ($2::timestamptz IS NOT NULL AND (${heard} IS NULL OR ${heard} < $2::timestamptz)))
        AND (account_key COLLATE "C" > $3 OR (account_key = $3 AND product_uid COLLATE "C" > $4))
      ORDER BY account_key COLLATE "C", product_uid COLLATE "C" LIMIT $5`;
}

/** Every kind of row the listing tells apart, once per account; some accounts hold two products. */
function kinds(accountKey: string): Entitlement[] {
  const sub = (fields: Partial<Entitlement>) =>
    exampleEntitlement({
      accountKey,
      productUid: 'prod_premium',
      subscriptionUid: `sub_${accountKey}_${fields.productUid ?? 'premium'}`,
      trialEndsAt: null,
      lastEventAt: at(-2),
      ...fields,
    });
  return [
    sub({ status: 'ACTIVE', currentPeriodEnd: at(-1) }), // due: period ended, not heard since
    sub({ status: 'TRIALING', trialEndsAt: at(-1), currentPeriodEnd: at(6) }), // due: trial ended
    sub({ status: 'PRE_CANCELED', cancelAt: at(-1), currentPeriodEnd: at(-1), lastEventAt: at(-9) }),
    sub({ status: 'IN_GRACE', graceEndsAt: null, currentPeriodEnd: at(-3), lastEventAt: at(-20) }),
    sub({ status: 'ACTIVE', currentPeriodEnd: at(20), lastEventAt: at(-8) }), // due by age only
    sub({ status: 'ACTIVE', currentPeriodEnd: at(20), lastEventAt: null }), // never heard: by age
    sub({ status: 'ACTIVE', currentPeriodEnd: at(20), lastEventAt: at(-1) }), // not due
    sub({ status: 'ACTIVE', currentPeriodEnd: at(-5), lastEventAt: at(-4) }), // heard since its end
    sub({ status: 'ACTIVE', currentPeriodEnd: at(1), lastEventAt: at(-1) }), // deadline to come
    sub({ status: 'ACTIVE', currentPeriodEnd: at(0), lastEventAt: at(-1) }), // due: ends this instant
    sub({ status: 'ACTIVE', currentPeriodEnd: at(-1), lastEventAt: at(-1) }), // heard at its end: not by it
    sub({ status: 'ACTIVE', currentPeriodEnd: at(20), lastEventAt: at(-7) }), // heard at staleBefore: not stale
    sub({ status: 'REVOKED', currentPeriodEnd: at(-5), lastEventAt: at(-30) }), // ended
    sub({ status: 'ACTIVE', subscriptionUid: null, currentPeriodEnd: at(-5), lastEventAt: at(-30) }),
    exampleEntitlement({
      accountKey,
      productUid: 'prod_units',
      type: 'CONSUMABLE',
      subscriptionUid: null,
      currentPeriodEnd: null,
      trialEndsAt: null,
      lastEventAt: at(-30),
    }),
  ];
}

/**
 * Accounts whose keys sort differently in JavaScript (and COLLATE "C") than in most locales, each
 * holding one kind of row, plus accounts holding two due products: pages end inside an account.
 */
function dataSet(): Entitlement[] {
  const names = ['Zed', 'alpha', 'alpha_2', 'Alpha', 'beta', 'b', 'é', 'e', '10', '9', 'user-x', 'user_x'];
  const rows: Entitlement[] = [];
  for (let n = 0; n < 4 * names.length; n++) {
    const accountKey = `${names[n % names.length]}_${Math.floor(n / names.length)}`;
    const all = kinds(accountKey);
    rows.push(all[n % all.length] as Entitlement);
  }
  for (const accountKey of ['two_a', 'two_b', 'two_c']) {
    const [ended, trial] = kinds(accountKey);
    if (ended && trial) rows.push(ended, { ...trial, productUid: 'prod_extra' });
  }
  return rows;
}

/** Reconciled at: some confirmed after their deadline (not due by it), one long ago (still due). */
const RECONCILED: Array<[number, string]> = [
  [0, at(0)],
  [4, at(-0.5)],
  [12, at(-30)],
];

const keyOf = (entitlement: Entitlement): EntitlementKey => ({
  accountKey: entitlement.accountKey,
  productUid: entitlement.productUid,
});
const named = (entitlement: Entitlement) => `${entitlement.accountKey}:${entitlement.productUid}`;

/** Every page of the listing, `limit` at a time, as names. */
async function pageThrough(
  list: (after: EntitlementKey | undefined) => Promise<Entitlement[]>,
  limit: number,
): Promise<string[][]> {
  const pages: string[][] = [];
  let after: EntitlementKey | undefined;
  for (let page = 0; page < 100; page++) {
    const rows = await list(after);
    pages.push(rows.map(named));
    const last = rows.at(-1);
    if (rows.length < limit || last === undefined) return pages;
    after = keyOf(last);
  }
  throw new Error('the listing never ended');
}

const DEFAULT_AGE = { now: NOW, staleBefore: new Date(at(-7)) };
const QUERIES: Array<{ now: Date; staleBefore: Date | null }> = [
  DEFAULT_AGE,
  { now: NOW, staleBefore: null },
  { now: new Date(at(2)), staleBefore: new Date(at(-1)) },
  { now: new Date(at(-10)), staleBefore: new Date(at(-25)) },
];
const LIMITS = [3, 100];

async function upgradesInPlace(executor: SqlExecutor, schema: string): Promise<void> {
  const { store, tables } = createSqlStore(executor, { schema, tablePrefix: PREFIX });
  const upToVersion5 = MIGRATIONS.filter((migration) => migration.version <= 5);
  expect((await migrate(executor, tables, upToVersion5)).applied).toEqual([1, 2, 3, 4, 5]);
  // Rows as version 5's store wrote them: the record, and the columns copied from it.
  const rows = dataSet();
  for (const row of rows) {
    await executor.query(
      `INSERT INTO ${tables.entitlements}
        (account_key, product_uid, subscription_uid, data, live_subscription, deadline_at, last_event_at)
        VALUES ($1, $2, $3, $4::text::jsonb, $5, $6::timestamptz, $7::timestamptz)`,
      [
        row.accountKey,
        row.productUid,
        row.subscriptionUid,
        JSON.stringify(row),
        isLiveSubscription(row),
        reconcileDeadline(row)?.at ?? null,
        row.lastEventAt,
      ],
    );
  }
  const reconciledAt = new Map<string, string>();
  for (const [index, when] of RECONCILED) {
    const row = rows[index] as Entitlement;
    await executor.query(
      `UPDATE ${tables.entitlements} SET reconciled_at = $3 WHERE account_key = $1 AND product_uid = $2`,
      [row.accountKey, row.productUid, when],
    );
    reconciledAt.set(named(row), when);
  }

  // Version 5's answers, before the upgrade.
  const before = new Map<string, string[][]>();
  for (const [q, query] of QUERIES.entries()) {
    for (const limit of LIMITS) {
      before.set(
        `${q}/${limit}`,
        await pageThrough(async (after) => {
          const { rows: found } = await executor.query<{ data: Entitlement }>(version5Due(tables), [
            query.now.toISOString(),
            query.staleBefore?.toISOString() ?? null,
            after?.accountKey ?? '',
            after?.productUid ?? '',
            limit,
          ]);
          return found.map((row) => row.data);
        }, limit),
      );
    }
  }

  const upToVersion6 = MIGRATIONS.filter((migration) => migration.version <= 6);
  expect(await migrate(executor, tables, upToVersion6)).toEqual({ applied: [6], version: 6 });

  const { rows: indexes } = await executor.query<{ indexname: string }>(
    'SELECT indexname FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname',
    [schema],
  );
  const names = indexes.map((index) => index.indexname);
  expect(names).toContain(`${PREFIX}entitlements_due_deadline_idx`);
  expect(names).toContain(`${PREFIX}entitlements_due_heard_idx`);
  expect(names).not.toContain(`${PREFIX}entitlements_deadline_idx`);
  expect(names).not.toContain(`${PREFIX}entitlements_heard_idx`);

  for (const [q, query] of QUERIES.entries()) {
    const expected = rows
      .filter((row) => dueReason(row, reconciledAt.get(named(row)) ?? null, query) !== undefined)
      .map(named)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const limit of LIMITS) {
      const pages = await pageThrough(
        (after) => store.listDueEntitlements({ ...query, after, limit }),
        limit,
      );
      expect(pages, `query ${q}, pages of ${limit}`).toEqual(before.get(`${q}/${limit}`));
      expect(pages.flat(), `query ${q}: what dueReason says`).toEqual(expected);
    }
  }
  // The data set is the mix it claims: every reason, rows not due, several pages of 3.
  const reasons = new Set(
    rows.map((row) => dueReason(row, reconciledAt.get(named(row)) ?? null, DEFAULT_AGE)),
  );
  expect([...reasons].sort()).toEqual([
    'cancel_at_passed',
    'grace_ended',
    'period_ended',
    'stale',
    'trial_ended',
    undefined,
  ]);
  expect((before.get('0/3') ?? []).length).toBeGreaterThan(4);

  // With the table too small to be worth an index, forbid the other ways so that the plan shows
  // whether the indexes can serve the query at all: both are read with the paging key in the
  // index condition, not filtered from rows afterwards.
  const plan = await executor.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off');
    await tx.query('SET LOCAL enable_bitmapscan = off');
    const { rows: lines } = await tx.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN ${storeStatements(tables).due}`,
      [NOW.toISOString(), at(-7), 'alpha_0', 'prod_premium', 3],
    );
    return lines.map((line) => line['QUERY PLAN']).join('\n');
  });
  for (const index of ['entitlements_due_deadline_idx', 'entitlements_due_heard_idx']) {
    const scan = new RegExp(
      `Index (Only )?Scan using ${PREFIX}${index} .*\\n\\s+Index Cond: \\(.*\\(ROW\\(account_key, product_uid\\) > ROW\\('alpha_0'::text, 'prod_premium'::text\\)\\)\\)`,
    );
    expect(plan).toMatch(scan);
  }
}

describe.skipIf(!DATABASE_URL)('migration 6 on PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(() => {
    database = testDatabase('migrate_due');
  });
  afterAll(() => database?.drop());

  it('upgrades a version 5 database in place: same due pages, from indexes that hold the paging key', () =>
    upgradesInPlace(fromPg(database.pool), database.schema));
});

describe('migration 6 on PGlite', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await openPglite();
  }, 60_000);
  afterAll(() => db?.close());

  it('upgrades a version 5 database in place: same due pages, from indexes that hold the paging key', () =>
    upgradesInPlace(fromPglite(db), uniqueSchema('migrate_due')));
});
