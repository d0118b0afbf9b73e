import assert from 'node:assert/strict';
import {
  cohortCountsOf,
  type LifecycleDaysQuery,
  revenueMovesOf,
  trialOutcomesOf,
} from '../../metrics/lifecycle-counts.js';
import type { LifecycleTime, SubscriptionLifecycle } from '../../metrics/subscription-lifecycle.js';
import type { LifecycleStore } from '../lifecycle-store.js';
import { uniqueId } from './example-entitlement.js';
import { type ConformanceCheck, type ConformanceOptions, runChecks } from './test-runner.js';

const event = (at: string): LifecycleTime => ({ at: `${at}.000Z`, provisional: false });
const read = (at: string): LifecycleTime => ({ at: `${at}.000Z`, provisional: true });

/** A record of `offerUid` (unique per check, so checks sharing a database stay apart). */
function record(
  offerUid: string,
  subscriptionUid: string,
  accountKey: string,
  fields: Partial<SubscriptionLifecycle> = {},
): SubscriptionLifecycle {
  return {
    subscriptionUid,
    accountKey,
    productUid: `prod_of_${offerUid}`,
    offerUid,
    currency: 'TND',
    monthlyValue: 4500,
    ...fields,
  };
}

const MONTHS: LifecycleDaysQuery = { from: '2030-01-01', to: '2031-01-01' };
const QUERIES: readonly LifecycleDaysQuery[] = [
  MONTHS,
  { from: '2030-02-01', to: '2030-04-01' },
  { from: '2030-03-15', to: '2030-03-15' },
];

const sorted = <T>(rows: readonly T[]) => rows.map((row) => JSON.stringify(row)).sort();

/** The store's three reads of `offerUid`, each sorted, for each of QUERIES. */
async function readsOf(store: LifecycleStore, offerUid: string) {
  const mine = <T extends { offerUid: string }>(rows: readonly T[]) =>
    sorted(rows.filter((row) => row.offerUid === offerUid));
  const reads = [];
  for (const query of QUERIES) {
    const moves = await store.readRevenueMoves(query);
    reads.push({
      cohorts: mine(await store.readCohortCounts(query)),
      moves: mine(moves.days),
      liveBefore: mine(moves.liveBefore),
      trials: mine(await store.readTrialOutcomes(query)),
    });
  }
  return reads;
}

/** The same reads, as their definitions give them over `lifecycles`. */
function definedReadsOf(lifecycles: readonly SubscriptionLifecycle[]) {
  return QUERIES.map((query) => {
    const moves = revenueMovesOf(lifecycles, query);
    return {
      cohorts: sorted(cohortCountsOf(lifecycles, query)),
      moves: sorted(moves.days),
      liveBefore: sorted(moves.liveBefore),
      trials: sorted(trialOutcomesOf(lifecycles, query)),
    };
  });
}

/** One subscription's life told in parts (a read's estimates among them), and the record they make. */
function toldInParts(offerUid: string) {
  const uid = uniqueId('sub');
  const account = uniqueId('account');
  const parts = [
    record(offerUid, uid, account, { trialStartedAt: event('2030-01-25T08:00:00') }),
    record(offerUid, uid, account, { firstPaidAt: read('2030-01-31T00:00:00') }),
    record(offerUid, uid, account, { firstPaidAt: event('2030-02-01T09:00:00') }),
    record(offerUid, uid, account, { firstPaidAt: event('2030-03-01T09:00:00') }),
    record(offerUid, uid, account, { endedAt: read('2030-03-10T00:00:00'), endCause: 'canceled' }),
    record(offerUid, uid, account, { endedAt: event('2030-03-21T10:00:00'), endCause: 'suspended' }),
    record(offerUid, uid, account, { endedAt: event('2030-03-21T10:00:00'), endCause: 'canceled' }),
  ];
  const whole = record(offerUid, uid, account, {
    trialStartedAt: event('2030-01-25T08:00:00'),
    firstPaidAt: event('2030-02-01T09:00:00'),
    endedAt: event('2030-03-21T10:00:00'),
    endCause: 'canceled',
  });
  return { parts, whole };
}

/**
 * Subscribers of one offer: a returning one (paid, ended, back), trials converted, cancelled and
 * failed, a trial still running, a subscription live across the queries' start, another currency.
 */
function planted(offerUid: string): SubscriptionLifecycle[] {
  const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map(() => uniqueId('account')) as string[];
  const one = (account: string, fields: Partial<SubscriptionLifecycle>) =>
    record(offerUid, uniqueId('sub'), account, fields);
  return [
    one(a as string, {
      firstPaidAt: event('2030-01-10T10:00:00'),
      endedAt: event('2030-02-14T00:00:00'),
      endCause: 'canceled',
    }),
    one(a as string, { firstPaidAt: event('2030-03-02T10:00:00') }),
    one(b as string, {
      trialStartedAt: event('2030-01-28T00:00:00'),
      firstPaidAt: event('2030-02-04T00:00:00'),
    }),
    one(c as string, {
      trialStartedAt: event('2030-02-03T00:00:00'),
      endedAt: event('2030-02-10T00:00:00'),
      endCause: 'suspended',
    }),
    one(c as string, {
      trialStartedAt: event('2030-03-03T00:00:00'),
      endedAt: event('2030-03-05T00:00:00'),
      endCause: 'expired',
    }),
    one(d as string, { trialStartedAt: event('2030-03-14T23:59:59') }),
    one(e as string, { firstPaidAt: event('2030-01-31T23:59:59'), currency: 'EUR', monthlyValue: 900 }),
    one(e as string, {
      firstPaidAt: event('2030-03-15T00:00:00'),
      endedAt: read('2030-04-01T00:00:00'),
      endCause: 'expired',
      monthlyValue: 6500,
    }),
  ];
}

export const lifecycleChecks: readonly ConformanceCheck<LifecycleStore>[] = [
  {
    name: 'the reads are their definitions over the records: cohorts, revenue moves and trial outcomes, in UTC days and months',
    async run(store) {
      const offer = uniqueId('offer');
      const lifecycles = planted(offer);
      await store.recordLifecycles(lifecycles);
      assert.deepStrictEqual(await readsOf(store, offer), definedReadsOf(lifecycles));
    },
  },
  {
    name: "merges are order-free: each time the earliest an event told (a read's only without one), the end's cause with its time",
    async run(store) {
      // Forwards, backwards, one call each and all in one call: the same record.
      const orders = [
        [[0], [1], [2], [3], [4], [5], [6]],
        [[6], [5], [4], [3], [2], [1], [0]],
        [[0, 1, 2, 3, 4, 5, 6]],
        [
          [3, 1, 6, 0],
          [5, 2, 4],
        ],
      ];
      for (const order of orders) {
        const offer = uniqueId('offer');
        const { parts, whole } = toldInParts(offer);
        for (const call of order)
          await store.recordLifecycles(call.map((index) => parts[index] as SubscriptionLifecycle));
        assert.deepStrictEqual(
          await readsOf(store, offer),
          definedReadsOf([whole]),
          `told in the order ${JSON.stringify(order)}`,
        );
      }
    },
  },
  {
    name: 'duplicates and calls at the same moment merge to one record',
    async run(store) {
      const offer = uniqueId('offer');
      const { parts, whole } = toldInParts(offer);
      await Promise.all([...parts, ...parts].map((one) => store.recordLifecycles([one, one])));
      assert.deepStrictEqual(await readsOf(store, offer), definedReadsOf([whole]));
    },
  },
  {
    name: "a subscriber's later subscription told first still joins their first cohort, and comes back as reactivated",
    async run(store) {
      const offer = uniqueId('offer');
      const account = uniqueId('account');
      const first = record(offer, uniqueId('sub'), account, { firstPaidAt: event('2030-01-05T00:00:00') });
      const ended = { ...first, endedAt: event('2030-01-20T00:00:00'), endCause: 'canceled' as const };
      const back = record(offer, uniqueId('sub'), account, { firstPaidAt: event('2030-02-10T00:00:00') });
      // The return first, then the first subscription, then its end, at once with nothing.
      await store.recordLifecycles([back]);
      await Promise.all([
        store.recordLifecycles([first]),
        store.recordLifecycles([]),
        store.recordLifecycles([ended]),
      ]);
      assert.deepStrictEqual(await readsOf(store, offer), definedReadsOf([ended, back]));
    },
  },
];

/**
 * Registers the LifecycleStore checks, each on a fresh store from `factory` (a store may share one
 * database across checks: every check writes its own offers). Pass `describe` and `it` from your
 * test runner, or use its globals.
 *
 * @example
 * runLifecycleConformance(() => myStore(), { name: 'myStore', describe, it });
 */
export function runLifecycleConformance(
  factory: () => LifecycleStore | Promise<LifecycleStore>,
  options: ConformanceOptions<LifecycleStore> = {},
): void {
  runChecks('runLifecycleConformance', 'LifecycleStore conformance', lifecycleChecks, factory, options);
}
