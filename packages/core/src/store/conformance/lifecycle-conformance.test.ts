import { describe, expect, it } from 'vitest';
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

/** The last record told wins: order matters. */
function lastWinsStore(): LifecycleStore {
  const records = new Map<string, Parameters<LifecycleStore['recordLifecycles']>[0][number]>();
  return {
    async recordLifecycles(lifecycles) {
      for (const one of lifecycles)
        records.set(one.subscriptionUid, { ...records.get(one.subscriptionUid), ...one });
    },
    async readLifecycles() {
      return [...records.values()];
    },
  };
}

/** Takes the earliest time whoever told it: a read's estimate beats the event. */
function readTrustingStore(): LifecycleStore {
  const inner = memoryLifecycles();
  return {
    ...inner,
    recordLifecycles: (lifecycles) =>
      inner.recordLifecycles(
        lifecycles.map((one) => ({
          ...one,
          ...(one.firstPaidAt ? { firstPaidAt: { ...one.firstPaidAt, provisional: false } } : {}),
          ...(one.endedAt ? { endedAt: { ...one.endedAt, provisional: false } } : {}),
        })),
      ),
  };
}

describe('the lifecycle conformance suite', () => {
  it('catches a store whose merge depends on the order, or trusts a read over an event', async () => {
    const orderFree = check('order-free');
    await expect(orderFree.run(lastWinsStore())).rejects.toThrow();
    await expect(orderFree.run(readTrustingStore())).rejects.toThrow();
    await expect(orderFree.run(memoryLifecycles())).resolves.toBeUndefined();
  });

  it('catches a store that answers records begun after the read', async () => {
    await expect(check('begun').run(lastWinsStore())).rejects.toThrow();
    await expect(check('begun').run(memoryLifecycles())).resolves.toBeUndefined();
  });
});
