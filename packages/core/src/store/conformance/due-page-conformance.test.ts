import { describe, expect, it } from 'vitest';
import { memoryStore } from '../memory-store.js';
import type { DuePage, DuePageQuery } from '../reconcile-store.js';
import { reconcileChecks } from './reconcile-conformance.js';

// The listDuePage check is only worth running if it catches broken walks: these are broken on
// purpose, on the memory store, beside a right one that pages by key with the key as its cursor.

type Store = ReturnType<typeof memoryStore>;

function withDuePage(listDuePage: (store: Store, query: DuePageQuery) => Promise<DuePage>) {
  const store = memoryStore();
  return Object.assign(store, { listDuePage: (query: DuePageQuery) => listDuePage(store, query) });
}

async function byKey(store: Store, query: DuePageQuery, staleBefore = query.staleBefore): Promise<DuePage> {
  const after = query.cursor === undefined ? undefined : JSON.parse(query.cursor);
  const entitlements = await store.listDueEntitlements({ ...query, staleBefore, after, limit: query.limit });
  const last = entitlements.at(-1);
  return {
    entitlements,
    cursor:
      entitlements.length < query.limit || last === undefined
        ? undefined
        : JSON.stringify({ accountKey: last.accountKey, productUid: last.productUid }),
  };
}

const check = reconcileChecks.find((one) => one.name.includes('listDuePage'));

describe('the listDuePage check', () => {
  it('passes a walk by key, and skips a store without listDuePage', async () => {
    await expect(check?.run(withDuePage(byKey))).resolves.toBeUndefined();
    await expect(check?.run(memoryStore())).resolves.toBeUndefined();
  });

  it('catches a walk that forgets the subscriptions due by age', async () => {
    await expect(check?.run(withDuePage((store, query) => byKey(store, query, null)))).rejects.toThrow();
  });

  it('catches a walk that lists an entitlement twice', async () => {
    let pages = 0;
    const repeating = withDuePage(async (store, query) => {
      const page = await byKey(store, { ...query, cursor: undefined });
      // The first page over and over, three times a walk.
      pages++;
      return { entitlements: page.entitlements, cursor: pages % 3 === 0 ? undefined : 'again' };
    });
    await expect(check?.run(repeating)).rejects.toThrow();
  });
});
