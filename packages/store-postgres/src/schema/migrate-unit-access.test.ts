import { hasAccess } from '@dcbkit/core';
import { entitlementSchema } from '@dcbkit/core/schemas';
import { consumeUnitAt } from '@dcbkit/core/store';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlStore } from '../connect/create-sql-store.js';
import { fromPg } from '../executor/from-pg.js';
import { fromPglite } from '../executor/from-pglite.js';
import type { SqlExecutor } from '../executor/sql-executor.js';
import { DATABASE_URL, type TestDatabase, testDatabase, uniqueSchema } from '../test-support/database.js';
import { openPglite } from '../test-support/pglite.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations.js';

// Version 9 gives every record the fields of units that sell time: a database written by version 8
// reads back as records of the new shape, each unit still giving access while left.

/** A record as version 8 wrote it: no unitAccessSeconds, no unitAccessEndsAt. */
function oldRecord(accountKey: string) {
  return {
    accountKey,
    productUid: 'prod_day_pass',
    offerUid: 'offer_day_pass',
    type: 'CONSUMABLE',
    status: 'ACTIVE',
    subscriptionUid: null,
    subscriberUid: `sbr_${accountKey}`,
    currentPeriodEnd: null,
    trialEndsAt: null,
    cancelAt: null,
    graceEndsAt: null,
    unitsBought: 2,
    unitsUsed: 1,
    lastEventName: 'payment.succeeded',
    lastEventAt: '2026-11-21T12:00:00.000Z',
  };
}

async function upgradesToVersion9(executor: SqlExecutor, schema: string): Promise<void> {
  const { store, tables } = createSqlStore(executor, { schema });
  const upToVersion8 = MIGRATIONS.filter((migration) => migration.version <= 8);
  expect((await migrate(executor, tables, upToVersion8)).applied).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  await executor.query(
    `INSERT INTO ${tables.entitlements} (account_key, product_uid, data) VALUES ($1, $2, $3::text::jsonb)`,
    ['user_old', 'prod_day_pass', JSON.stringify(oldRecord('user_old'))],
  );
  // A record that has the fields already (written by a newer instance during a rolling upgrade).
  const timed = {
    ...oldRecord('user_new'),
    unitAccessSeconds: 86_400,
    unitAccessEndsAt: '2026-11-22T12:00:00.000Z',
  };
  await executor.query(
    `INSERT INTO ${tables.entitlements} (account_key, product_uid, data) VALUES ($1, $2, $3::text::jsonb)`,
    ['user_new', 'prod_day_pass', JSON.stringify(timed)],
  );
  const versionOf = async (accountKey: string) =>
    (
      await executor.query<{ version: string }>(
        `SELECT version::text AS version FROM ${tables.entitlements} WHERE account_key = $1`,
        [accountKey],
      )
    ).rows[0]?.version;
  const before = await versionOf('user_old');

  expect(await migrate(executor, tables)).toEqual({ applied: [9, 10, 11, 12, 13, 14, 15], version: 15 });

  const strict = entitlementSchema.strict();
  const upgraded = strict.parse(await store.get('user_old', 'prod_day_pass'));
  expect(upgraded).toMatchObject({
    unitsBought: 2,
    unitsUsed: 1,
    unitAccessSeconds: null,
    unitAccessEndsAt: null,
  });
  // Its last unit still gives access while left, as before the upgrade.
  expect(hasAccess(upgraded)).toBe(true);
  expect(strict.parse(await store.get('user_new', 'prod_day_pass'))).toEqual(timed);
  // The upgrade is a write: an update that read the old row writes again on the new one.
  expect(await versionOf('user_old')).not.toBe(before);

  // A spend on the upgraded timed record adds its day.
  const now = new Date('2026-11-22T00:00:00.000Z');
  const spent = await store.update('user_new', 'prod_day_pass', consumeUnitAt(now));
  expect(spent.next).toMatchObject({ unitsUsed: 2, unitAccessEndsAt: '2026-11-23T12:00:00.000Z' });
  expect(hasAccess(spent.next, now)).toBe(true);
}

describe.skipIf(!DATABASE_URL)('migration 9 on PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(() => {
    database = testDatabase('migrate_unit_access');
  });
  afterAll(() => database?.drop());

  it('gives version 8 rows the fields of units that sell time', () =>
    upgradesToVersion9(fromPg(database.pool), database.schema));
});

describe('migration 9 on PGlite', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await openPglite();
  }, 60_000);
  afterAll(() => db?.close());

  it('gives version 8 rows the fields of units that sell time', () =>
    upgradesToVersion9(fromPglite(db), uniqueSchema('migrate_unit_access')));
});
