import { describe, expect, it } from 'vitest';
import type { Entitlement } from '../../schemas/entitlement.js';
import type { EntitlementStore } from '../entitlement-store.js';
import type { LineStore } from '../line-store.js';
import { memoryEntitlements } from '../memory-entitlements.js';
import { memoryStore } from '../memory-store.js';
import { lineChecks, runLineConformance } from './line-conformance.js';

runLineConformance(() => memoryStore(), { name: 'memoryStore', describe, it });

// The suite is only worth running if it catches broken stores: these are broken on purpose.

type Subject = EntitlementStore & LineStore;

/** Indexes a line when first written, and never forgets it (a line an entitlement left still lists it). */
function staleStore(): Subject {
  const { store } = memoryEntitlements();
  const lines = new Map<string, Map<string, Entitlement>>();
  return {
    ...store,
    async update(accountKey, productUid, change, facts) {
      const result = await store.update(accountKey, productUid, change, facts);
      const line = result.next?.subscriberUid;
      if (line) {
        const held = lines.get(line) ?? new Map<string, Entitlement>();
        held.set(`${accountKey}\n${productUid}`, result.next as Entitlement);
        lines.set(line, held);
      }
      return result;
    },
    async listBySubscriberUid(subscriberUid) {
      return [...(lines.get(subscriberUid)?.values() ?? [])].sort((a, b) =>
        `${a.accountKey}\n${a.productUid}` < `${b.accountKey}\n${b.productUid}` ? -1 : 1,
      );
    },
  };
}

/** Answers only the live entitlements of the line, in the order written. */
function liveOnlyStore(): Subject {
  const { store } = memoryEntitlements();
  const written: Entitlement[] = [];
  return {
    ...store,
    async update(accountKey, productUid, change, facts) {
      const result = await store.update(accountKey, productUid, change, facts);
      if (result.wrote && result.next) written.push(result.next);
      return result;
    },
    async listBySubscriberUid(subscriberUid) {
      const all = await Promise.all(written.map((one) => store.get(one.accountKey, one.productUid)));
      const unique = [...new Set(all)];
      return unique.filter(
        (one): one is Entitlement => one?.subscriberUid === subscriberUid && one.status !== 'REVOKED',
      );
    },
  };
}

function check(name: string) {
  const found = lineChecks.find((one) => one.name.includes(name));
  if (!found) throw new Error(`no line check named like "${name}"`);
  return found;
}

describe('the line conformance suite', () => {
  it('catches a store that keeps a line an entitlement left', async () => {
    const moved = check('changes line');
    await expect(moved.run(staleStore())).rejects.toThrow();
    await expect(moved.run(memoryStore())).resolves.toBeUndefined();
  });

  it('catches a store that drops ended entitlements or answers out of order', async () => {
    const whole = check('across accounts');
    await expect(whole.run(liveOnlyStore())).rejects.toThrow();
    await expect(whole.run(staleStore())).resolves.toBeUndefined();
    await expect(whole.run(memoryStore())).resolves.toBeUndefined();
  });
});
