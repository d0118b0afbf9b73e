import { hasAccess, isDcbError } from '@dcbkit/core';
import { consumeUnitAt, exampleEntitlement } from '@dcbkit/core/store';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from './connect/postgres-store.js';
import { DATABASE_URL, type TestDatabase, testDatabase } from './test-support/database.js';

// Day passes spent from two app instances at once, each with its own pool: every spend that goes
// through adds its own day after the others, and no pass is spent twice.

const DAY_MS = 86_400_000;

describe.skipIf(!DATABASE_URL)('day passes spent from two instances', () => {
  let database: TestDatabase;
  let otherPool: pg.Pool;
  beforeAll(async () => {
    database = testDatabase('spend_two_instances');
    otherPool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
    await postgresStore({ pool: database.pool, schema: database.schema }).migrate();
  });
  afterAll(async () => {
    await otherPool?.end();
    await database?.drop();
  });

  it('give exactly one day per pass, one after another, whichever instance spends it', async () => {
    const one = postgresStore({ pool: database.pool, schema: database.schema }).store;
    const two = postgresStore({ pool: otherPool, schema: database.schema }).store;
    const key = { accountKey: 'user_pass', productUid: 'prod_day_pass' };
    await one.update(key.accountKey, key.productUid, () =>
      exampleEntitlement({
        ...key,
        offerUid: 'offer_day_pass',
        type: 'CONSUMABLE',
        subscriptionUid: null,
        unitsBought: 4,
        unitAccessSeconds: 86_400,
      }),
    );
    const now = new Date('2026-11-24T09:00:00.000Z');
    const spends = await Promise.allSettled(
      Array.from({ length: 30 }, (_, index) =>
        (index % 2 === 0 ? one : two).update(key.accountKey, key.productUid, consumeUnitAt(now)),
      ),
    );
    const through = spends.flatMap((spend) => (spend.status === 'fulfilled' ? [spend.value.next] : []));
    const refused = spends.flatMap((spend) => (spend.status === 'rejected' ? [spend.reason] : []));
    expect(through).toHaveLength(4);
    expect(refused.every((reason) => isDcbError(reason, 'no_units_left'))).toBe(true);
    expect(through.map((next) => next?.unitAccessEndsAt).sort()).toEqual(
      [1, 2, 3, 4].map((days) => new Date(now.getTime() + days * DAY_MS).toISOString()),
    );
    const stored = await two.get(key.accountKey, key.productUid);
    expect(stored).toMatchObject({ unitsUsed: 4, unitAccessEndsAt: '2026-11-28T09:00:00.000Z' });
    expect(hasAccess(stored, new Date('2026-11-28T08:59:59.999Z'))).toBe(true);
    expect(hasAccess(stored, new Date('2026-11-28T09:00:00.000Z'))).toBe(false);
  });
});
