/**
 * Issue 36: a planted history through the embedded sandbox on its clock, checked number by number
 * against what the sandbox itself recorded, on every built-in store. 59 subscribers over three
 * months: trials that convert, that are cancelled and that fail; renewals collected and failed;
 * grace recovered and exhausted; cancellations now and at period end; passes bought and spent;
 * unlocks; and 23 checkouts through the kit's routes, paid, refused, failed, cancelled, expired or open.
 * Every delivery may come twice or out of order, and a three-day webhook outage is
 * repaired by reconciliation, then its dead letters replayed.
 */
import type { EntitlementStore } from '@dcbkit/core/store';
import { pgliteStore, postgresStore } from '@dcbkit/store-postgres';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DATABASE_URL,
  testDatabase,
  uniqueSchema,
} from '../../packages/store-postgres/src/test-support/database.js';
import { openPglite } from '../../packages/store-postgres/src/test-support/pglite.js';
import { funnelTruth, kitFunnel } from './funnel-truth.js';
import { lifecycleMismatchOf } from './lifecycle-truth.js';
import { MONTHS, PLANTED_UNTIL, plantThreeMonths, startPlantedWorld } from './planted-world.js';
import { kitCounts, sandboxTruth, withoutEmpty } from './sandbox-truth.js';

interface StoreUnderTest {
  name: string;
  skip?: boolean;
  open(): Promise<{ store: EntitlementStore; close(): Promise<void> }>;
}

const STORES: StoreUnderTest[] = [
  {
    name: 'memoryStore',
    async open() {
      const { memoryStore } = await import('@dcbkit/core');
      return { store: memoryStore(), close: async () => {} };
    },
  },
  {
    name: 'pgliteStore',
    async open() {
      const db = await openPglite();
      const sql = await pgliteStore({ db, schema: uniqueSchema('planted') });
      return { store: sql.store, close: () => db.close() };
    },
  },
  {
    name: 'postgresStore',
    skip: !DATABASE_URL,
    async open() {
      const database = testDatabase('planted');
      const sql = postgresStore({ pool: database.pool, schema: database.schema });
      await sql.migrate();
      return { store: sql.store, close: () => database.drop() };
    },
  },
];

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe.each(STORES)('the business view of a planted history: $name', (target) => {
  it.skipIf(target.skip === true)(
    'counts every number of three months as the sandbox recorded it',
    async () => {
      const { store, close } = await target.open();
      closers.push(close);
      const world = await startPlantedWorld(store);
      closers.push(() => world.close());
      await plantThreeMonths(world);

      const report = await world.kit.metrics({
        from: new Date(MONTHS[0] as string),
        to: new Date(PLANTED_UNTIL),
        interval: 'month',
      });
      expect(report.rows.map((row) => row.start)).toEqual(expect.arrayContaining(MONTHS));
      const truth = withoutEmpty(
        await sandboxTruth(
          world.sandbox,
          { from: MONTHS[0] as string, to: PLANTED_UNTIL, interval: 'month' },
          world.spent,
        ),
      );
      expect(Object.fromEntries(kitCounts(report))).toEqual(Object.fromEntries(truth));
      // Something of each kind was planted: the comparison is not between two empty tables.
      const total = (pick: (row: (typeof report.rows)[number]) => number) =>
        report.rows.reduce((sum, row) => sum + pick(row), 0);
      expect(total((row) => row.trialsConverted)).toBe(12);
      expect(total((row) => row.graceRecovered)).toBe(8);
      expect(total((row) => row.churned.suspended)).toBe(4);
      expect(total((row) => row.unitsSpent)).toBe(20);
      // The checkouts the routes started, as the sandbox recorded each payment's end.
      const funnel = await world.kit.checkoutFunnel({
        from: new Date(MONTHS[0] as string),
        to: new Date(PLANTED_UNTIL),
        interval: 'month',
      });
      const buckets = { from: MONTHS[0] as string, to: PLANTED_UNTIL, interval: 'month' as const };
      const checkouts = await funnelTruth(world.sandbox, buckets, world.routed);
      expect(Object.fromEntries(kitFunnel(funnel.rows))).toEqual(Object.fromEntries(checkouts));
      expect(world.routed).toHaveLength(23);
      // Cohorts, revenue movements and the trial funnel, by day, week and month, as the sandbox's records give them.
      const to = new Date(PLANTED_UNTIL);
      expect(await lifecycleMismatchOf(world.kit, world.sandbox, MONTHS[0] as string, to)).toBeUndefined();
      const cohorts = await world.kit.cohorts({ from: new Date(MONTHS[0] as string), to });
      expect(cohorts.rows.reduce((sum, row) => sum + row.size, 0)).toBeGreaterThan(0);
    },
    240_000,
  );
});
