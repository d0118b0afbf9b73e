import type { Entitlement } from '@dcbkit/core';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlStore, type SqlStore } from '../connect/create-sql-store.js';
import { fromPg } from '../executor/from-pg.js';
import { fromPglite } from '../executor/from-pglite.js';
import { buyUnit as buyUnitOf, noCredits } from '../test-support/buy-unit.js';
import { DATABASE_URL, type TestDatabase, testDatabase, uniqueSchema } from '../test-support/database.js';
import { openPglite } from '../test-support/pglite.js';

// A purchase adds a row beside the record, never to it: the 2,000th unit costs what the first did.

const PURCHASES = 2_000;

const blank = noCredits('user_size');
const buyUnit = buyUnitOf(blank);

async function purchase(sqlStore: SqlStore, n: number): Promise<Entitlement | undefined> {
  const { next } = await sqlStore.store.update(blank.accountKey, blank.productUid, buyUnit, {
    paymentUid: `pay_size_${n}`,
    unitOrderId: `ord_size_${n}`,
  });
  return next;
}

async function recordBytes(sqlStore: SqlStore): Promise<number> {
  const { rows } = await sqlStore.executor.query<{ bytes: number }>(
    `SELECT pg_column_size(data) AS bytes FROM ${sqlStore.tables.entitlements}
      WHERE account_key = $1 AND product_uid = $2`,
    [blank.accountKey, blank.productUid],
  );
  return Number(rows[0]?.bytes);
}

async function countOf(sqlStore: SqlStore, table: string): Promise<number> {
  const { rows } = await sqlStore.executor.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return Number(rows[0]?.n);
}

async function purchasesKeepTheRecordSize(sqlStore: SqlStore): Promise<void> {
  await purchase(sqlStore, 0);
  const afterOne = await recordBytes(sqlStore);
  for (let n = 1; n < PURCHASES; n++) await purchase(sqlStore, n);

  expect((await sqlStore.store.get(blank.accountKey, blank.productUid))?.unitsBought).toBe(PURCHASES);
  expect(await recordBytes(sqlStore)).toBe(afterOne);
  expect(await countOf(sqlStore, sqlStore.tables.entitlementUnits)).toBe(PURCHASES);
  expect(await countOf(sqlStore, sqlStore.tables.entitlementPayments)).toBe(PURCHASES);

  // Redelivered, every one of them: nothing counted, nothing recorded, the record not even rewritten.
  const { rows: before } = await sqlStore.executor.query<{ version: string }>(
    `SELECT version::text AS version FROM ${sqlStore.tables.entitlements}`,
  );
  for (let n = 0; n < PURCHASES; n++) {
    expect((await purchase(sqlStore, n))?.unitsBought).toBe(PURCHASES);
  }
  const { rows: after } = await sqlStore.executor.query<{ version: string }>(
    `SELECT version::text AS version FROM ${sqlStore.tables.entitlements}`,
  );
  expect(after).toEqual(before);
  expect(await countOf(sqlStore, sqlStore.tables.entitlementUnits)).toBe(PURCHASES);
  expect(await countOf(sqlStore, sqlStore.tables.entitlementPayments)).toBe(PURCHASES);
}

describe.skipIf(!DATABASE_URL)('record size on PostgreSQL', () => {
  let database: TestDatabase;
  let sqlStore: SqlStore;
  beforeAll(async () => {
    database = testDatabase('record_size');
    sqlStore = createSqlStore(fromPg(database.pool), { schema: database.schema });
    await sqlStore.migrate();
  });
  afterAll(() => database?.drop());

  it(
    `stays the same over ${PURCHASES} unit purchases, which the units table holds`,
    () => purchasesKeepTheRecordSize(sqlStore),
    60_000,
  );
});

describe('record size on PGlite', () => {
  let db: PGlite;
  let sqlStore: SqlStore;
  beforeAll(async () => {
    db = await openPglite();
    sqlStore = createSqlStore(fromPglite(db), { schema: uniqueSchema('record_size') });
    await sqlStore.migrate();
  }, 60_000);
  afterAll(() => db?.close());

  it(
    `stays the same over ${PURCHASES} unit purchases, which the units table holds`,
    () => purchasesKeepTheRecordSize(sqlStore),
    60_000,
  );
});
