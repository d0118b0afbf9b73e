import assert from 'node:assert/strict';
import type { SubscriptionLifecycle } from '../../metrics/subscription-lifecycle.js';
import type { LifecycleStore } from '../lifecycle-store.js';
import { uniqueId } from './example-entitlement.js';
import { type ConformanceCheck, type ConformanceOptions, runChecks } from './test-runner.js';

/** A record of a subscription unique to the check (checks sharing a database stay apart). */
function record(subscriptionUid: string, fields: Partial<SubscriptionLifecycle> = {}): SubscriptionLifecycle {
  return {
    subscriptionUid,
    accountKey: `account_of_${subscriptionUid}`,
    productUid: 'prod_premium',
    offerUid: 'offer_premium_monthly',
    currency: 'TND',
    monthlyValue: 4500,
    ...fields,
  };
}

const event = (at: string) => ({ at, provisional: false });
const read = (at: string) => ({ at, provisional: true });

/** The store's record of `subscriptionUid`, as plain JSON (undefined fields left out). */
async function heldOf(
  store: LifecycleStore,
  subscriptionUid: string,
  begunBefore = '2100-01-01T00:00:00.000Z',
) {
  const found = (await store.readLifecycles({ begunBefore })).filter(
    (one) => one.subscriptionUid === subscriptionUid,
  );
  return found.map((one) => JSON.parse(JSON.stringify(one)));
}

/** The parts of one subscription's life as separate records, told in the order given. */
function parts(uid: string): SubscriptionLifecycle[] {
  return [
    record(uid, { trialStartedAt: event('2030-06-01T08:00:00.000Z') }),
    record(uid, { firstPaidAt: read('2030-06-08T00:00:00.000Z') }),
    record(uid, { firstPaidAt: event('2030-06-08T09:00:00.000Z') }),
    record(uid, { firstPaidAt: event('2030-07-08T09:00:00.000Z') }),
    record(uid, { endedAt: read('2030-08-20T00:00:00.000Z'), endCause: 'canceled' }),
    record(uid, { endedAt: event('2030-08-21T10:00:00.000Z'), endCause: 'suspended' }),
    record(uid, { endedAt: event('2030-08-21T10:00:00.000Z'), endCause: 'canceled' }),
  ];
}

const WHOLE = (uid: string) => [
  {
    ...record(uid),
    trialStartedAt: event('2030-06-01T08:00:00.000Z'),
    firstPaidAt: event('2030-06-08T09:00:00.000Z'),
    endedAt: event('2030-08-21T10:00:00.000Z'),
    endCause: 'canceled',
  },
];

export const lifecycleChecks: readonly ConformanceCheck<LifecycleStore>[] = [
  {
    name: 'a record comes back with every field kept',
    async run(store) {
      const uid = uniqueId('sub');
      await store.recordLifecycles([WHOLE(uid)[0] as SubscriptionLifecycle]);
      assert.deepStrictEqual(await heldOf(store, uid), WHOLE(uid));
    },
  },
  {
    name: "merges are order-free: each time the earliest an event told (a read's only without one), the end's cause with its time",
    async run(store) {
      const told = parts('x');
      // Forwards, backwards, one call each and all in one call: the same record.
      const orders = [
        told.map((_, index) => [index]),
        told.map((_, index) => [told.length - 1 - index]),
        [told.map((_, index) => index)],
        [
          [3, 1, 6, 0],
          [5, 2, 4],
        ],
      ];
      for (const order of orders) {
        const uid = uniqueId('sub');
        const mine = parts(uid);
        for (const call of order)
          await store.recordLifecycles(call.map((index) => mine[index] as SubscriptionLifecycle));
        assert.deepStrictEqual(
          await heldOf(store, uid),
          WHOLE(uid),
          `told in the order ${JSON.stringify(order)}`,
        );
      }
    },
  },
  {
    name: 'duplicates and calls at the same moment merge to one record',
    async run(store) {
      const uid = uniqueId('sub');
      const mine = parts(uid);
      await Promise.all([...mine, ...mine].map((one) => store.recordLifecycles([one, one])));
      assert.deepStrictEqual(await heldOf(store, uid), WHOLE(uid));
    },
  },
  {
    name: 'a read answers the records begun (trial or first charge) before its time, and no other',
    async run(store) {
      const trial = uniqueId('sub');
      const paid = uniqueId('sub');
      const later = uniqueId('sub');
      const endedOnly = uniqueId('sub');
      await store.recordLifecycles([
        record(trial, { trialStartedAt: event('2030-06-01T08:00:00.000Z') }),
        record(paid, { firstPaidAt: event('2030-06-02T08:00:00.000Z') }),
        record(later, { firstPaidAt: event('2030-07-01T00:00:00.000Z') }),
        record(endedOnly, { endedAt: event('2030-06-01T00:00:00.000Z'), endCause: 'expired' }),
      ]);
      const found = (await store.readLifecycles({ begunBefore: '2030-07-01T00:00:00.000Z' })).map(
        (one) => one.subscriptionUid,
      );
      assert.ok(found.includes(trial) && found.includes(paid), 'the records begun before');
      assert.ok(!found.includes(later), 'a record begun at the time itself is not before it');
      assert.ok(!found.includes(endedOnly), 'a record never begun is not answered');
      await store.recordLifecycles([]);
    },
  },
];

/**
 * Registers the LifecycleStore checks, each on a fresh store from `factory` (a store may share one
 * database across checks: every check writes its own subscriptions). Pass `describe` and `it` from
 * your test runner, or use its globals.
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
