/**
 * Issue 36: a planted history through the embedded sandbox on its clock, checked number by number
 * against what the sandbox itself recorded, on every built-in store. 59 subscribers over three
 * months: trials that convert, that are cancelled and that fail; renewals collected and failed;
 * grace recovered and exhausted; cancellations now and at period end; passes bought and spent;
 * unlocks. Every delivery may come twice or out of order, and a three-day webhook outage is
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
import { advanceDays, buy, type PlantedWorld, spend, startPlantedWorld } from './planted-world.js';
import { kitCounts, sandboxTruth, withoutEmpty } from './sandbox-truth.js';

const TRIAL = 'offer_premium_monthly';
const PAID = 'offer_premium_monthly_paid';
const PASS = 'offer_day_pass';
const UNLOCK = 'offer_full_unlock';
const MONTHS = ['2030-01-01', '2030-02-01', '2030-03-01', '2030-04-01'].map((day) => `${day}T00:00:00.000Z`);

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

const accounts = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(2, '0')}`);

/** Subscriptions by account, and the passes bought, planted on January 1. */
async function plantPurchases(world: PlantedWorld) {
  const subscriptions = new Map<string, string>();
  const all = [...accounts('t', 20).map((a) => [a, TRIAL]), ...accounts('p', 20).map((a) => [a, PAID])];
  for (const [index, [account, offer]] of all.entries()) {
    const uid = await buy(world, account as string, offer as string, index % 2 === 0);
    subscriptions.set(account as string, uid ?? '');
  }
  for (const [index, account] of accounts('d', 12).entries()) {
    for (let pass = 0; pass <= index % 3; pass++) await buy(world, account, PASS, pass === 0);
  }
  for (const [index, account] of accounts('u', 7).entries())
    await buy(world, account, UNLOCK, index % 2 === 1);
  return subscriptions;
}

describe.each(STORES)('the business view of a planted history: $name', (target) => {
  it.skipIf(target.skip === true)(
    'counts every number of three months as the sandbox recorded it',
    async () => {
      const { store, close } = await target.open();
      closers.push(close);
      const world = await startPlantedWorld(store);
      closers.push(() => world.close());
      world.sandbox.setChaos({ seed: 36, duplicateProbability: 0.3, reorderProbability: 0.2 });
      const subscriptions = await plantPurchases(world);
      const sub = (account: string) => subscriptions.get(account) as string;
      const subscriptionsApi = world.kit.client.subscriptions;

      // Trials: t09-t12 cancelled before their end; t13-t16 pay a day late; t17-t20 never pay.
      for (const account of accounts('t', 20).slice(12, 16)) {
        world.sandbox.setRenewalOutcome(sub(account), 'insufficient_balance', 1);
      }
      for (const account of accounts('t', 20).slice(16))
        world.sandbox.setRenewalOutcome(sub(account), 'declined');
      // Paid: p09-p12 pay February's renewal a day late.
      for (const account of accounts('p', 20).slice(8, 12)) {
        world.sandbox.setRenewalOutcome(sub(account), 'insufficient_balance', 1);
      }
      await advanceDays(world, 3);
      for (const account of accounts('t', 20).slice(8, 12)) {
        await subscriptionsApi.cancel(sub(account), { when: 'PERIOD_END' });
      }
      await advanceDays(world, 7);
      for (const account of accounts('d', 12)) await spend(world, account, 'prod_day_pass');
      await advanceDays(world, 5); // January 16: p17-p20 stop at the period's end
      for (const account of accounts('p', 20).slice(16)) {
        await subscriptionsApi.cancel(sub(account), { when: 'PERIOD_END' });
      }
      await advanceDays(world, 4); // January 20: p13-p16 stop now
      for (const account of accounts('p', 20).slice(12, 16))
        await subscriptionsApi.cancel(sub(account), { when: 'NOW' });

      await advanceDays(world, 39); // February 28, the night before March's renewals
      world.receiver.up = false;
      await advanceDays(world, 3); // every attempt of three days refused: dead letters
      world.receiver.up = true;
      expect(world.sandbox.webhooks().some((delivery) => delivery.status === 'DEAD_LETTERED')).toBe(true);
      const repaired = await world.kit.reconcile();
      expect(repaired.failures).toEqual([]);
      expect(repaired.changes.length).toBeGreaterThan(0);
      for (const delivery of world.sandbox.webhooks()) {
        if (delivery.status === 'DEAD_LETTERED') await world.sandbox.replayWebhook(delivery.id);
      }
      await advanceDays(world, 35); // April 7
      // Those who bought more than one pass use a second.
      for (const [index, account] of accounts('d', 12).entries()) {
        if (index % 3 >= 1) await spend(world, account, 'prod_day_pass');
      }

      const report = await world.kit.metrics({
        from: new Date(MONTHS[0] as string),
        to: new Date('2030-05-01T00:00:00.000Z'),
        interval: 'month',
      });
      expect(report.rows.map((row) => row.start)).toEqual(expect.arrayContaining(MONTHS));
      const truth = withoutEmpty(await sandboxTruth(world.sandbox, MONTHS, world.spent));
      expect(Object.fromEntries(kitCounts(report))).toEqual(Object.fromEntries(truth));
      // Something of each kind was planted: the comparison is not between two empty tables.
      const total = (pick: (row: (typeof report.rows)[number]) => number) =>
        report.rows.reduce((sum, row) => sum + pick(row), 0);
      expect(total((row) => row.trialsConverted)).toBe(12);
      expect(total((row) => row.graceRecovered)).toBe(8);
      expect(total((row) => row.churned.suspended)).toBe(4);
      expect(total((row) => row.unitsSpent)).toBe(20);
    },
    240_000,
  );
});
