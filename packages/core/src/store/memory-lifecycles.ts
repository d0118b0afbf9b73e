import { mergeLifecycles, type SubscriptionLifecycle } from '../metrics/subscription-lifecycle.js';
import { begunBefore, type LifecycleStore } from './lifecycle-store.js';

/** Lifecycle records in process memory, one per subscription, merged as they come. */
export function memoryLifecycles(): LifecycleStore {
  const records = new Map<string, SubscriptionLifecycle>();
  return {
    async recordLifecycles(lifecycles) {
      for (const one of lifecycles) {
        const held = records.get(one.subscriptionUid);
        records.set(one.subscriptionUid, held === undefined ? one : mergeLifecycles(held, one));
      }
    },
    async readLifecycles({ begunBefore: before }) {
      return [...records.values()].filter((one) => begunBefore(one, before));
    },
  };
}
