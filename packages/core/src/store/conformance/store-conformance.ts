import assert from 'node:assert/strict';
import { consumeUnit, consumeUnitAt } from '../../access/consume-unit.js';
import type { EntitlementFacts, KnownFacts } from '../../access/facts.js';
import { isDcbError } from '../../errors/dcb-error.js';
import { type Entitlement, entitlementSchema } from '../../schemas/entitlement.js';
import type { EntitlementChange, EntitlementStore } from '../entitlement-store.js';
import { exampleEntitlement, uniqueId } from './example-entitlement.js';
import { type ConformanceCheck, type ConformanceOptions, runChecks, same } from './test-runner.js';

const CONCURRENT_WRITERS = 50;
const DAY = 86_400;

function entitlementOf(
  accountKey: string,
  productUid: string,
  overrides: Partial<Entitlement> = {},
): Entitlement {
  return exampleEntitlement({
    accountKey,
    productUid,
    subscriptionUid: uniqueId('sub'),
    ...overrides,
  });
}

/** A purchase as the rules make it: one unit per order the store does not know yet. */
function addUnit(current: Entitlement | undefined, known: KnownFacts): Entitlement {
  if (current === undefined) throw new Error('expected an entitlement');
  return known.unitOrderId ? current : { ...current, unitsBought: current.unitsBought + 1 };
}

/** The same, creating the entitlement when there is none yet (a first purchase). */
function addUnitOrCreate(accountKey: string, productUid: string): EntitlementChange {
  return (current, known) =>
    addUnit(current ?? entitlementOf(accountKey, productUid, { type: 'CONSUMABLE', unitsBought: 0 }), known);
}

function buy(store: EntitlementStore, accountKey: string, productUid: string, unitOrderId: string) {
  return store.update(accountKey, productUid, addUnit, { unitOrderId });
}

type Change = (current: Entitlement | undefined) => Entitlement | undefined;

/** A change that notes what it was told, then makes `result` of the record. */
function noting(told: KnownFacts[], result: Change): EntitlementChange {
  return (current, known) => {
    told.push({ paymentUid: known.paymentUid, unitOrderId: known.unitOrderId });
    return result(current);
  };
}

const NOTHING_KNOWN: KnownFacts = { paymentUid: false, unitOrderId: false };
const ALL_KNOWN: KnownFacts = { paymentUid: true, unitOrderId: true };

/** What every EntitlementStore must do; runStoreConformance runs each as a test. */
export const storeChecks: readonly ConformanceCheck<EntitlementStore>[] = [
  {
    name: 'get, listByAccount and the finds answer nothing for what was never written',
    async run(store) {
      assert.equal(await store.get(uniqueId('acct'), 'prod_a'), undefined);
      assert.deepEqual(await store.listByAccount(uniqueId('acct')), []);
      assert.equal(await store.findBySubscriptionUid(uniqueId('sub')), undefined);
      assert.equal(await store.findByPaymentUid(uniqueId('pay')), undefined);
    },
  },
  {
    name: 'update creates an entitlement that get and both finds return',
    async run(store) {
      const accountKey = uniqueId('acct');
      const created = entitlementOf(accountKey, 'prod_a');
      const paymentUid = uniqueId('pay');
      const stored = await store.update(accountKey, 'prod_a', () => created, { paymentUid });
      same(stored.next, created, 'update resolves to the stored record');
      assert.equal(stored.previous, undefined, 'there was no record before');
      assert.equal(stored.wrote, true, 'it wrote');
      same(await store.get(accountKey, 'prod_a'), created, 'get');
      same(
        await store.findBySubscriptionUid(created.subscriptionUid ?? ''),
        created,
        'findBySubscriptionUid',
      );
      same(await store.findByPaymentUid(paymentUid), created, 'findByPaymentUid');
    },
  },
  {
    name: 'records come back as the same JSON, null and empty fields included',
    async run(store) {
      const accountKey = uniqueId('acct');
      const full = entitlementOf(accountKey, 'prod_full', {
        type: 'CONSUMABLE',
        status: 'PRE_CANCELED',
        cancelAt: '2027-01-01T00:00:00.000Z',
        graceEndsAt: '2026-12-24T00:00:00.000Z',
        unitsBought: 3,
        unitsUsed: 1,
        unitAccessSeconds: 86_400,
        unitAccessEndsAt: '2026-12-25T08:30:00.000Z',
      });
      const sparse = entitlementOf(accountKey, 'prod_sparse', {
        subscriptionUid: null,
        subscriberUid: null,
        currentPeriodEnd: null,
        trialEndsAt: null,
        lastEventName: null,
        lastEventAt: null,
      });
      for (const entitlement of [full, sparse]) {
        await store.update(accountKey, entitlement.productUid, () => entitlement);
        const read = await store.get(accountKey, entitlement.productUid);
        assert.deepStrictEqual(
          JSON.parse(JSON.stringify(read ?? null)),
          JSON.parse(JSON.stringify(entitlement)),
        );
        assert.ok(entitlementSchema.safeParse(read).success, 'the record read back is a valid Entitlement');
      }
    },
  },
  {
    name: 'update hands the change the committed record and resolves to it, what it stored, and that it wrote',
    async run(store) {
      const accountKey = uniqueId('acct');
      const first = entitlementOf(accountKey, 'prod_a');
      const seen: (Entitlement | undefined)[] = [];
      await store.update(accountKey, 'prod_a', (current) => {
        seen.push(current);
        return first;
      });
      const second = { ...first, status: 'REVOKED' as const, lastEventName: 'entitlement.revoked' };
      const result = await store.update(accountKey, 'prod_a', (current) => {
        seen.push(current);
        return second;
      });
      assert.equal(seen.at(0), undefined, 'the first change sees no record');
      same(seen.at(-1), first, 'the second change sees the committed record');
      same(result.next, second, 'update resolves to what it stored');
      same(result.previous, first, 'update resolves to the record it replaced');
      assert.equal(result.wrote, true, 'it wrote');
      same(await store.get(accountKey, 'prod_a'), second, 'get after update');
    },
  },
  {
    name: 'a change that returns undefined writes nothing',
    async run(store) {
      const accountKey = uniqueId('acct');
      assert.deepEqual(await store.update(accountKey, 'prod_a', () => undefined), {
        previous: undefined,
        next: undefined,
        wrote: false,
      });
      assert.equal(await store.get(accountKey, 'prod_a'), undefined);
      const created = entitlementOf(accountKey, 'prod_a');
      await store.update(accountKey, 'prod_a', () => created);
      const declined = await store.update(accountKey, 'prod_a', () => undefined);
      same(declined.next, created, 'update with no change');
      same(declined.previous, created, 'update with no change: previous');
      assert.equal(declined.wrote, false, 'update with no change writes nothing');
      same(await store.get(accountKey, 'prod_a'), created, 'get after an update with no change');
    },
  },
  {
    name: 'a change that throws rejects the update and writes nothing',
    async run(store) {
      const accountKey = uniqueId('acct');
      const created = entitlementOf(accountKey, 'prod_a');
      await store.update(accountKey, 'prod_a', () => created);
      await assert.rejects(
        store.update(accountKey, 'prod_a', () => {
          throw new Error('decided against it');
        }),
        /decided against it/,
      );
      same(await store.get(accountKey, 'prod_a'), created, 'get after a throwing change');
    },
  },
  {
    name: "listByAccount returns the account's entitlements only, in productUid order",
    async run(store) {
      const accountKey = uniqueId('acct');
      const other = uniqueId('acct');
      for (const productUid of ['prod_c', 'prod_a', 'prod_b']) {
        await store.update(accountKey, productUid, () => entitlementOf(accountKey, productUid));
      }
      await store.update(other, 'prod_a', () => entitlementOf(other, 'prod_a'));
      const listed = await store.listByAccount(accountKey);
      assert.deepEqual(
        listed.map((entitlement) => entitlement.productUid),
        ['prod_a', 'prod_b', 'prod_c'],
      );
      assert.ok(listed.every((entitlement) => entitlement.accountKey === accountKey));
    },
  },
  {
    name: 'findBySubscriptionUid follows a new subscriptionUid and forgets the old one',
    async run(store) {
      const accountKey = uniqueId('acct');
      const created = entitlementOf(accountKey, 'prod_a');
      await store.update(accountKey, 'prod_a', () => created);
      const renewedUid = uniqueId('sub');
      await store.update(
        accountKey,
        'prod_a',
        (current) => current && { ...current, subscriptionUid: renewedUid },
      );
      assert.equal((await store.findBySubscriptionUid(renewedUid))?.subscriptionUid, renewedUid);
      assert.equal(await store.findBySubscriptionUid(created.subscriptionUid ?? ''), undefined);
    },
  },
  {
    name: 'findByPaymentUid finds a payment added by a later update, and the earlier ones still',
    async run(store) {
      const accountKey = uniqueId('acct');
      const [first, later] = [uniqueId('pay'), uniqueId('pay')];
      await store.update(accountKey, 'prod_a', () => entitlementOf(accountKey, 'prod_a'), {
        paymentUid: first,
      });
      await store.update(accountKey, 'prod_a', (current) => current && { ...current, status: 'REVOKED' }, {
        paymentUid: later,
      });
      assert.equal((await store.findByPaymentUid(later))?.status, 'REVOKED', 'the later payment');
      assert.equal((await store.findByPaymentUid(first))?.status, 'REVOKED', 'the earlier payment, now');
    },
  },
  {
    name: 'update tells the change which facts it already holds for this entitlement',
    async run(store) {
      const accountKey = uniqueId('acct');
      const facts: EntitlementFacts = { paymentUid: uniqueId('pay'), unitOrderId: uniqueId('ord') };
      const update = (productUid: string, told: KnownFacts[], result: Change, brought?: EntitlementFacts) =>
        store.update(accountKey, productUid, noting(told, result), brought);
      const unchanged: Change = (current) => current;
      const told: KnownFacts[] = [];
      await update('prod_a', told, () => entitlementOf(accountKey, 'prod_a', { type: 'CONSUMABLE' }), facts);
      await update('prod_a', told, unchanged, facts);
      await update('prod_a', told, unchanged, { paymentUid: facts.paymentUid });
      await update('prod_a', told, unchanged);
      assert.deepEqual(told, [
        NOTHING_KNOWN,
        ALL_KNOWN,
        { paymentUid: true, unitOrderId: false },
        NOTHING_KNOWN,
      ]);
      // Another entitlement knows neither; the payment stays with the entitlement it was recorded for.
      const otherTold: KnownFacts[] = [];
      await update('prod_b', otherTold, () => entitlementOf(accountKey, 'prod_b'), facts);
      await update('prod_b', otherTold, unchanged, facts);
      assert.deepEqual(otherTold, [NOTHING_KNOWN, { paymentUid: false, unitOrderId: true }]);
      assert.equal((await store.findByPaymentUid(facts.paymentUid ?? ''))?.productUid, 'prod_a');
    },
  },
  {
    name: 'facts are recorded when the change returns the record it was given',
    async run(store) {
      const accountKey = uniqueId('acct');
      const created = entitlementOf(accountKey, 'prod_a');
      await store.update(accountKey, 'prod_a', () => created);
      const facts: EntitlementFacts = { paymentUid: uniqueId('pay'), unitOrderId: uniqueId('ord') };
      const recorded = await store.update(accountKey, 'prod_a', (current) => current, facts);
      same(recorded.next, created, 'update');
      assert.equal(recorded.wrote, true, 'new facts are a write');
      const again = await store.update(accountKey, 'prod_a', (current) => current, facts);
      assert.equal(again.wrote, false, 'facts already held and the same record: nothing written');
      const told: KnownFacts[] = [];
      await store.update(
        accountKey,
        'prod_a',
        noting(told, (current) => current),
        facts,
      );
      assert.deepEqual(told, [ALL_KNOWN]);
      same(await store.findByPaymentUid(facts.paymentUid ?? ''), created, 'findByPaymentUid');
    },
  },
  {
    name: 'a change that returns undefined or throws records no fact',
    async run(store) {
      const accountKey = uniqueId('acct');
      const facts: EntitlementFacts = { paymentUid: uniqueId('pay'), unitOrderId: uniqueId('ord') };
      await store.update(accountKey, 'prod_a', () => undefined, facts);
      await store.update(accountKey, 'prod_a', () => entitlementOf(accountKey, 'prod_a'));
      await store.update(accountKey, 'prod_a', () => undefined, facts);
      await assert.rejects(
        store.update(
          accountKey,
          'prod_a',
          () => {
            throw new Error('decided against it');
          },
          facts,
        ),
        /decided against it/,
      );
      const told: KnownFacts[] = [];
      await store.update(
        accountKey,
        'prod_a',
        noting(told, () => undefined),
        facts,
      );
      assert.deepEqual(told, [NOTHING_KNOWN]);
      assert.equal(await store.findByPaymentUid(facts.paymentUid ?? ''), undefined);
    },
  },
  {
    name: `${CONCURRENT_WRITERS} concurrent updates of one entitlement lose none (atomic read-decide-write)`,
    async run(store) {
      const accountKey = uniqueId('acct');
      await store.update(accountKey, 'prod_units', () =>
        entitlementOf(accountKey, 'prod_units', { type: 'CONSUMABLE' }),
      );
      const orderIds = Array.from(
        { length: CONCURRENT_WRITERS },
        (_, i) => `ord_${String(i).padStart(3, '0')}`,
      );
      // Each order twice (a redelivery racing its first delivery): every unit counted once.
      await Promise.all(
        [...orderIds, ...orderIds].map((orderId) => buy(store, accountKey, 'prod_units', orderId)),
      );
      assert.equal((await store.get(accountKey, 'prod_units'))?.unitsBought, CONCURRENT_WRITERS);
    },
  },
  {
    name: `${CONCURRENT_WRITERS} concurrent first updates of a new entitlement lose none (the missing row is locked too)`,
    async run(store) {
      const accountKey = uniqueId('acct');
      // Ten rounds: each round's writers all find no row, so a lock taken only on an existing row
      // lets them all insert over each other.
      for (let round = 0; round < 10; round++) {
        const productUid = `prod_new_${round}`;
        await Promise.all(
          Array.from({ length: CONCURRENT_WRITERS / 5 }, (_, i) =>
            store.update(accountKey, productUid, addUnitOrCreate(accountKey, productUid), {
              unitOrderId: `ord_${round}_${i}`,
            }),
          ),
        );
        assert.equal(
          (await store.get(accountKey, productUid))?.unitsBought,
          CONCURRENT_WRITERS / 5,
          `round ${round}: every first purchase counted`,
        );
      }
    },
  },
  {
    name: 'one order delivered many times at once counts one unit (facts written with the record)',
    async run(store) {
      const accountKey = uniqueId('acct');
      for (let round = 0; round < 10; round++) {
        const productUid = `prod_dup_${round}`;
        const unitOrderId = uniqueId('ord');
        await Promise.all(
          Array.from({ length: 10 }, () =>
            store.update(accountKey, productUid, addUnitOrCreate(accountKey, productUid), { unitOrderId }),
          ),
        );
        assert.equal((await store.get(accountKey, productUid))?.unitsBought, 1, `round ${round}`);
      }
    },
  },
  {
    name: 'keys that differ only in case or in Unicode normalisation name distinct entitlements',
    async run(store) {
      const base = uniqueId('acct');
      // 'é' as one code point and as 'e' with a combining accent: equal to a person, not to the kit.
      const accounts = [`${base}_User_A`, `${base}_user_a`, `${base}_\u00e9`, `${base}_e\u0301`];
      for (const [index, accountKey] of accounts.entries()) {
        await store.update(accountKey, 'prod_a', () =>
          entitlementOf(accountKey, 'prod_a', { unitsBought: index }),
        );
        await store.update(accountKey, 'Prod_A', () =>
          entitlementOf(accountKey, 'Prod_A', { unitsBought: 10 + index }),
        );
      }
      for (const [index, accountKey] of accounts.entries()) {
        const listed = await store.listByAccount(accountKey);
        assert.deepEqual(
          listed.map((entitlement) => [
            entitlement.accountKey,
            entitlement.productUid,
            entitlement.unitsBought,
          ]),
          [
            [accountKey, 'Prod_A', 10 + index],
            [accountKey, 'prod_a', index],
          ],
          `${JSON.stringify(accountKey)} keeps its own entitlements, keys exactly as written`,
        );
      }
    },
  },
  {
    name: `${CONCURRENT_WRITERS} concurrent spends of 5 units spend exactly 5: never below zero`,
    async run(store) {
      const accountKey = uniqueId('acct');
      await store.update(accountKey, 'prod_units', () =>
        entitlementOf(accountKey, 'prod_units', { type: 'CONSUMABLE', unitsBought: 5, unitsUsed: 0 }),
      );
      const spends = await Promise.allSettled(
        Array.from({ length: CONCURRENT_WRITERS }, () => store.update(accountKey, 'prod_units', consumeUnit)),
      );
      const refused = spends.filter((spend) => spend.status === 'rejected');
      assert.equal(spends.length - refused.length, 5, 'five spends go through');
      for (const spend of refused) assert.ok(isDcbError(spend.reason, 'no_units_left'), String(spend.reason));
      assert.equal((await store.get(accountKey, 'prod_units'))?.unitsUsed, 5);
    },
  },
  {
    name: `${CONCURRENT_WRITERS} concurrent spends of 5 day passes give exactly 5 days, one after another`,
    async run(store) {
      // A unit that sells time writes its count and its access end in one record: a store that
      // spends with an atomic counter but writes the rest from its own read loses days.
      const accountKey = uniqueId('acct');
      const dayPass = { type: 'CONSUMABLE' as const, unitsBought: 5, unitsUsed: 0, unitAccessSeconds: DAY };
      await store.update(accountKey, 'prod_day_pass', () =>
        entitlementOf(accountKey, 'prod_day_pass', { ...dayPass, subscriptionUid: null }),
      );
      const now = new Date('2026-11-24T09:00:00.000Z');
      const spends = await Promise.allSettled(
        Array.from({ length: CONCURRENT_WRITERS }, () =>
          store.update(accountKey, 'prod_day_pass', consumeUnitAt(now)),
        ),
      );
      const through = spends.flatMap((spend) => (spend.status === 'fulfilled' ? [spend.value] : []));
      assert.equal(through.length, 5, 'five spends go through');
      const ends = through.map((spend) => spend.next?.unitAccessEndsAt).sort();
      const days = [1, 2, 3, 4, 5].map((day) => new Date(now.getTime() + day * DAY * 1000).toISOString());
      assert.deepEqual(ends, days, 'each spend adds its day after the days spent before it');
      const stored = await store.get(accountKey, 'prod_day_pass');
      assert.equal(stored?.unitsUsed, 5);
      assert.equal(stored?.unitAccessEndsAt, days[4], 'the record ends after the five days');
    },
  },
  {
    name: 'concurrent updates of different entitlements neither block nor mix',
    async run(store) {
      const accounts = Array.from({ length: 10 }, () => uniqueId('acct'));
      await Promise.all(
        accounts.map((accountKey) =>
          store.update(accountKey, 'prod_units', () =>
            entitlementOf(accountKey, 'prod_units', { type: 'CONSUMABLE' }),
          ),
        ),
      );
      await Promise.all(
        accounts.flatMap((accountKey) =>
          ['ord_1', 'ord_2', 'ord_3', 'ord_4', 'ord_5', 'ord_1'].map((orderId) =>
            buy(store, accountKey, 'prod_units', orderId),
          ),
        ),
      );
      for (const accountKey of accounts) {
        const entitlement = await store.get(accountKey, 'prod_units');
        assert.equal(entitlement?.accountKey, accountKey);
        assert.equal(entitlement?.unitsBought, 5, 'the same order ids in other accounts are theirs');
      }
    },
  },
  {
    name: 'a record already returned does not change when the store changes afterwards',
    async run(store) {
      const accountKey = uniqueId('acct');
      const created = entitlementOf(accountKey, 'prod_a');
      const { next: returned } = await store.update(accountKey, 'prod_a', () => created);
      const read = await store.get(accountKey, 'prod_a');
      await store.update(accountKey, 'prod_a', (current) => current && { ...current, status: 'REVOKED' });
      assert.equal(returned?.status, 'ACTIVE', 'the record update returned changed');
      assert.equal(read?.status, 'ACTIVE', 'the record get returned changed');
    },
  },
];

/**
 * The conformance suite every EntitlementStore must pass: memoryStore, the PostgreSQL store and
 * yours. Call it at the top level of a test file, with your runner's `describe` and `it` (vitest,
 * jest, mocha or node:test; the globals are used when the runner installs them). `factory` gives
 * each check a store (ids are unique per run, so one shared database is fine). The checks assert
 * with node:assert, so no runner is needed to load this module.
 *
 * @example
 * // my-store.test.ts
 * import { describe, it } from 'node:test'; // or 'vitest'
 * import { runStoreConformance } from '@dcbkit/core/store';
 * runStoreConformance(() => myStore(pool), { name: 'myStore', describe, it });
 */
export function runStoreConformance(
  factory: () => EntitlementStore | Promise<EntitlementStore>,
  options: ConformanceOptions<EntitlementStore> = {},
): void {
  runChecks('runStoreConformance', 'EntitlementStore conformance', storeChecks, factory, options);
}
