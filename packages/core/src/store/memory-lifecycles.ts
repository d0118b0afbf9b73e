import { cohortCountsOf, revenueMovesOf, trialOutcomesOf } from '../metrics/lifecycle-counts.js';
import { mergeLifecycles, type SubscriptionLifecycle } from '../metrics/subscription-lifecycle.js';
import type { LifecycleStore } from './lifecycle-store.js';

/** Lifecycle records in process memory, one per subscription, merged as they come; each read their definition over them all. */
export function memoryLifecycles(): LifecycleStore {
  const records = new Map<string, SubscriptionLifecycle>();
  return {
    async recordLifecycles(lifecycles) {
      for (const one of lifecycles) {
        const held = records.get(one.subscriptionUid);
        records.set(one.subscriptionUid, held === undefined ? one : mergeLifecycles(held, one));
      }
    },
    readCohortCounts: async (query) => cohortCountsOf(records.values(), query),
    readRevenueMoves: async (query) => revenueMovesOf(records.values(), query),
    readTrialOutcomes: async (query) => trialOutcomesOf(records.values(), query),
  };
}
