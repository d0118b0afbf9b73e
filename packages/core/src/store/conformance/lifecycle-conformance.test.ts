import { describe, expect, it } from 'vitest';
import { cohortCountsOf, revenueMovesOf, trialOutcomesOf } from '../../metrics/lifecycle-counts.js';
import type { SubscriptionLifecycle } from '../../metrics/subscription-lifecycle.js';
import type { LifecycleStore } from '../lifecycle-store.js';
import { memoryLifecycles } from '../memory-lifecycles.js';
import { memoryStore } from '../memory-store.js';
import { lifecycleChecks, runLifecycleConformance } from './lifecycle-conformance.js';

runLifecycleConformance(() => memoryStore(), { name: 'memoryStore', describe, it });

// The suite is only worth running if it catches broken stores: these are broken on purpose.

function check(name: string) {
  const found = lifecycleChecks.find((one) => one.name.includes(name));
  if (!found) throw new Error(`no lifecycle check named like "${name}"`);
  return found;
}

/** Reads its definitions over the records it keeps, kept as `keep` says. */
function storeKeeping(
  keep: (held: SubscriptionLifecycle | undefined, one: SubscriptionLifecycle) => SubscriptionLifecycle,
): LifecycleStore {
  const records = new Map<string, SubscriptionLifecycle>();
  return {
    async recordLifecycles(lifecycles) {
      for (const one of lifecycles)
        records.set(one.subscriptionUid, keep(records.get(one.subscriptionUid), one));
    },
    readCohortCounts: async (query) => cohortCountsOf(records.values(), query),
    readRevenueMoves: async (query) => revenueMovesOf(records.values(), query),
    readTrialOutcomes: async (query) => trialOutcomesOf(records.values(), query),
  };
}

/** The last time told wins: order matters. */
const lastWins = () => storeKeeping((held, one) => ({ ...held, ...one }));

/** The earliest time whoever told it: a read's estimate beats the event. */
const readTrusting = () => {
  const inner = memoryLifecycles();
  const asEvent = (time: SubscriptionLifecycle['endedAt']) => time && { ...time, provisional: false };
  return {
    ...inner,
    recordLifecycles: (lifecycles: readonly SubscriptionLifecycle[]) =>
      inner.recordLifecycles(
        lifecycles.map((one) => ({
          ...one,
          firstPaidAt: asEvent(one.firstPaidAt),
          endedAt: asEvent(one.endedAt),
        })),
      ),
  };
};

/** Buckets by the machine's local day east of UTC: a late evening start lands on the next day. */
const localDays = () => {
  const inner = memoryLifecycles();
  const shift = (time: SubscriptionLifecycle['trialStartedAt']) =>
    time && { ...time, at: new Date(Date.parse(time.at) + 3 * 3_600_000).toISOString() };
  return {
    ...inner,
    recordLifecycles: (lifecycles: readonly SubscriptionLifecycle[]) =>
      inner.recordLifecycles(
        lifecycles.map((one) => ({ ...one, trialStartedAt: shift(one.trialStartedAt) })),
      ),
  };
};

describe('the lifecycle conformance suite', () => {
  it('catches a store whose merge depends on the order, or trusts a read over an event', async () => {
    const orderFree = check('order-free');
    await expect(orderFree.run(lastWins())).rejects.toThrow();
    await expect(orderFree.run(readTrusting())).rejects.toThrow();
    await expect(orderFree.run(memoryLifecycles())).resolves.toBeUndefined();
  });

  it('catches a store that reads in local days', async () => {
    await expect(check('definitions').run(localDays())).rejects.toThrow();
    await expect(check('definitions').run(memoryLifecycles())).resolves.toBeUndefined();
  });
});
