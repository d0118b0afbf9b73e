import { entitlementSchema } from '@dcbkit/core/schemas';
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

// Version 3 moves the payment and order ids out of the record: a database written by version 2
// reads back, after the upgrade, as records of the new shape with the same lookups.

/** A record as version 2 wrote it: the ids in growing arrays. */
function oldRecord(accountKey: string, productUid: string, ids: Record<string, string[]>) {
  return {
    accountKey,
    productUid,
    offerUid: `off_${productUid}`,
    type: productUid === 'prod_premium' ? 'SUBSCRIPTION' : 'CONSUMABLE',
    status: 'ACTIVE',
    subscriptionUid: productUid === 'prod_premium' ? `sub_${accountKey}` : null,
    subscriberUid: `sbr_${accountKey}`,
    currentPeriodEnd: productUid === 'prod_premium' ? '2026-12-21T12:00:00.000Z' : null,
    trialEndsAt: null,
    cancelAt: null,
    graceEndsAt: null,
    paymentUids: [],
    unitOrderIds: [],
    usedOrderIds: [],
    lastEventName: 'payment.succeeded',
    lastEventAt: '2026-11-21T12:00:00.000Z',
    ...ids,
  };
}

const OLD_ROWS = [
  oldRecord('user_a', 'prod_credits', {
    paymentUids: ['pay_1', 'pay_2', 'pay_3'],
    unitOrderIds: ['ord_1', 'ord_2', 'ord_3'],
    usedOrderIds: ['ord_1'],
  }),
  oldRecord('user_a', 'prod_premium', { paymentUids: ['pay_s', 'pay_shared'] }),
  // The same payment uid on two rows (never written by the rules, but possible in old data).
  oldRecord('user_b', 'prod_credits', { paymentUids: ['pay_shared', 'pay_4'], unitOrderIds: ['ord_1'] }),
];

async function upgradesToVersion3(executor: SqlExecutor, schema: string): Promise<void> {
  const { store, tables } = createSqlStore(executor, { schema });
  const upToVersion2 = MIGRATIONS.filter((migration) => migration.version <= 2);
  expect((await migrate(executor, tables, upToVersion2)).applied).toEqual([1, 2]);
  for (const record of OLD_ROWS) {
    await executor.query(
      `INSERT INTO ${tables.entitlements} (account_key, product_uid, subscription_uid, payment_uids, data)
        VALUES ($1, $2, $3, $4::text[], $5::text::jsonb)`,
      [
        record.accountKey,
        record.productUid,
        record.subscriptionUid,
        record.paymentUids,
        JSON.stringify(record),
      ],
    );
  }

  expect(await migrate(executor, tables)).toEqual({
    applied: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    version: 15,
  });

  // Strict: the old fields are gone from the JSON, not only ignored.
  const strict = entitlementSchema.strict();
  const [credits, premium] = (await store.listByAccount('user_a')).map((record) => strict.parse(record));
  expect(credits).toMatchObject({
    productUid: 'prod_credits',
    unitsBought: 3,
    unitsUsed: 1,
    status: 'ACTIVE',
  });
  expect(premium).toMatchObject({ productUid: 'prod_premium', unitsBought: 0, unitsUsed: 0 });
  expect(strict.parse(await store.get('user_b', 'prod_credits'))).toMatchObject({ unitsBought: 1 });

  const owner = async (uid: string) => {
    const found = await store.findByPaymentUid(uid);
    return found && `${found.accountKey}/${found.productUid}`;
  };
  expect(await owner('pay_1')).toBe('user_a/prod_credits');
  expect(await owner('pay_3')).toBe('user_a/prod_credits');
  expect(await owner('pay_s')).toBe('user_a/prod_premium');
  expect(await owner('pay_4')).toBe('user_b/prod_credits');
  // A shared uid stays with the entitlement the old lookup found (the first in key order).
  expect(await owner('pay_shared')).toBe('user_a/prod_premium');
  expect(await owner('pay_unknown')).toBeUndefined();

  // The old ids are the store's facts now: an update is told which it already holds.
  const seen: unknown[] = [];
  const told = async (accountKey: string, facts: { paymentUid?: string; unitOrderId?: string }) => {
    await store.update(
      accountKey,
      'prod_credits',
      (_current, known) => {
        seen.push(known);
        return undefined;
      },
      facts,
    );
    return seen.at(-1);
  };
  expect(await told('user_a', { paymentUid: 'pay_2', unitOrderId: 'ord_3' })).toEqual({
    paymentUid: true,
    unitOrderId: true,
  });
  expect(await told('user_a', { unitOrderId: 'ord_4' })).toEqual({ paymentUid: false, unitOrderId: false });
  expect(await told('user_b', { paymentUid: 'pay_shared', unitOrderId: 'ord_1' })).toEqual({
    paymentUid: false,
    unitOrderId: true,
  });

  const { rows: columns } = await executor.query<{ column_name: string }>(
    'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2',
    [schema, 'dcbkit_entitlements'],
  );
  expect(columns.map((column) => column.column_name)).not.toContain('payment_uids');
  const { rows: indexes } = await executor.query<{ indexname: string }>(
    'SELECT indexname FROM pg_indexes WHERE schemaname = $1',
    [schema],
  );
  expect(indexes.map((index) => index.indexname)).not.toContain('dcbkit_entitlements_payments_idx');
}

describe.skipIf(!DATABASE_URL)('migration 3 on PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(() => {
    database = testDatabase('migrate_facts');
  });
  afterAll(() => database?.drop());

  it('moves the ids of version 2 rows into facts and counts', () =>
    upgradesToVersion3(fromPg(database.pool), database.schema));
});

describe('migration 3 on PGlite', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await openPglite();
  }, 60_000);
  afterAll(() => db?.close());

  it('moves the ids of version 2 rows into facts and counts', () =>
    upgradesToVersion3(fromPglite(db), uniqueSchema('migrate_facts')));
});
