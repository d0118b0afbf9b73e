import { describe, expect, it } from 'vitest';
import { dueReason } from '../../access/reconcile-deadline.js';
import type { ClaimToken, EventLedger } from '../../ledger/event-ledger.js';
import { memoryLedger } from '../../ledger/memory-ledger.js';
import type { EntitlementStore } from '../entitlement-store.js';
import type { HistoryStore } from '../history-store.js';
import { memoryStore } from '../memory-store.js';
import type { exampleEntitlement } from './example-entitlement.js';
import { historyChecks } from './history-conformance.js';
import { ledgerChecks, ledgerLeaseChecks } from './ledger-conformance.js';
import { reconcileChecks } from './reconcile-conformance.js';
import { storeChecks } from './store-conformance.js';

// The suites are only worth running if they catch broken implementations: these are broken on purpose.

const nextTick = () => new Promise((resolve) => setImmediate(resolve));

/** Reads, yields, then writes: two concurrent updates both read the old record and one write is lost. */
function lossyStore(): EntitlementStore {
  const inner = memoryStore();
  return {
    ...inner,
    async update(accountKey, productUid, change, facts) {
      const current = await inner.get(accountKey, productUid);
      await nextTick();
      return inner.update(accountKey, productUid, (_, known) => change(current, known), facts);
    },
  };
}

/** Locks a row only once it exists (SELECT … FOR UPDATE on a missing row): first updates race. */
function firstUpdateRacingStore(): EntitlementStore {
  const inner = memoryStore();
  return {
    ...inner,
    async update(accountKey, productUid, change, facts) {
      if ((await inner.get(accountKey, productUid)) !== undefined) {
        return inner.update(accountKey, productUid, change, facts);
      }
      const created = change(undefined, { paymentUid: false, unitOrderId: false });
      await nextTick();
      return inner.update(accountKey, productUid, () => created, facts);
    },
  };
}

/** Writes the record, then the facts in a second step: redeliveries in between count again. */
function lateFactsStore(): EntitlementStore {
  const inner = memoryStore();
  return {
    ...inner,
    async update(accountKey, productUid, change, facts) {
      const known = { paymentUid: false, unitOrderId: false };
      const written = await inner.update(accountKey, productUid, (current) => change(current, known));
      await nextTick();
      if (written.next !== undefined && facts !== undefined) {
        await inner.update(accountKey, productUid, (current) => current, facts);
      }
      return written;
    },
  };
}

/** Compares keys case-insensitively, as MariaDB's default collation does. */
function caseFoldingStore(): EntitlementStore {
  const inner = memoryStore();
  const fold = (key: string) => key.normalize('NFC').toLowerCase();
  return {
    ...inner,
    get: (accountKey, productUid) => inner.get(fold(accountKey), fold(productUid)),
    listByAccount: (accountKey) => inner.listByAccount(fold(accountKey)),
    update: (accountKey, productUid, change, facts) =>
      inner.update(
        fold(accountKey),
        fold(productUid),
        (current, known) => {
          const next = change(current, known);
          return next && { ...next, accountKey: fold(accountKey), productUid: fold(productUid) };
        },
        facts,
      ),
  };
}

/**
 * Spends as `UPDATE … SET units_used = units_used + 1 WHERE units_used < units_bought` would, which
 * never spends a unit twice, but writes the rest of the record from its own read: days are lost.
 */
function counterOnlyStore(): EntitlementStore {
  const inner = memoryStore();
  return {
    ...inner,
    async update(accountKey, productUid, change, facts) {
      const read = await inner.get(accountKey, productUid);
      await nextTick();
      return inner.update(
        accountKey,
        productUid,
        (current, known) => {
          const decided = change(read, known);
          if (current === undefined || decided === undefined || read === undefined)
            return change(current, known);
          if (decided.unitsUsed === read.unitsUsed) return change(current, known);
          if (current.unitsUsed >= current.unitsBought) return change(current, known);
          return { ...decided, unitsUsed: current.unitsUsed + 1 };
        },
        facts,
      );
    },
  };
}

/** Returns its live, mutable records. */
function leakyStore(): EntitlementStore {
  const records = new Map<string, ReturnType<typeof exampleEntitlement>>();
  const inner = memoryStore();
  return {
    ...inner,
    async get(accountKey, productUid) {
      return records.get(`${accountKey}/${productUid}`);
    },
    async update(accountKey, productUid, change) {
      const key = `${accountKey}/${productUid}`;
      const live = records.get(key);
      const next = change(live && { ...live }, { paymentUid: false, unitOrderId: false });
      if (next === undefined) return { previous: live, next: live, wrote: false };
      if (live) Object.assign(live, next);
      else records.set(key, { ...next });
      return { previous: undefined, next: records.get(key), wrote: true };
    },
  };
}

/** Writes right, but says it always wrote and never what it replaced. */
function carelessReporter(): EntitlementStore {
  const inner = memoryStore();
  return {
    ...inner,
    async update(accountKey, productUid, change, facts) {
      const { next } = await inner.update(accountKey, productUid, change, facts);
      return { previous: undefined, next, wrote: true };
    },
  };
}

/** Keeps no facts: every delivery of an order looks new. */
function forgetfulStore(): EntitlementStore {
  const inner = memoryStore();
  return {
    ...inner,
    update: (accountKey, productUid, change) => inner.update(accountKey, productUid, change),
  };
}

/** Records the facts even when the change writes nothing. */
function eagerStore(): EntitlementStore {
  const inner = memoryStore();
  return {
    ...inner,
    update: (accountKey, productUid, change, facts) =>
      inner.update(accountKey, productUid, (current, known) => change(current, known) ?? current, facts),
  };
}

/** Lists due entitlements in insertion order instead of key order: pages skip and repeat. */
function unsortedDueStore(): ReturnType<typeof memoryStore> {
  const inner = memoryStore();
  const written: { accountKey: string; productUid: string }[] = [];
  return {
    ...inner,
    async update(accountKey, productUid, change, facts) {
      if (!written.some((key) => key.accountKey === accountKey && key.productUid === productUid)) {
        written.push({ accountKey, productUid });
      }
      return inner.update(accountKey, productUid, change, facts);
    },
    async listDueEntitlements(query) {
      const due = await inner.listDueEntitlements({
        ...query,
        after: undefined,
        limit: Number.MAX_SAFE_INTEGER,
      });
      const order = (key: { accountKey: string; productUid: string }) =>
        written.findIndex(
          (other) => other.accountKey === key.accountKey && other.productUid === key.productUid,
        );
      const after = query.after;
      return due
        .sort((a, b) => order(a) - order(b))
        .filter((entitlement) => after === undefined || order(entitlement) > order(after))
        .slice(0, query.limit);
    },
  };
}

/** Reads the page cursor as inclusive: the last entitlement of a page comes again on the next. */
function inclusiveCursorStore(): ReturnType<typeof memoryStore> {
  const inner = memoryStore();
  return {
    ...inner,
    async listDueEntitlements(query) {
      const all = await inner.listDueEntitlements({
        ...query,
        after: undefined,
        limit: Number.MAX_SAFE_INTEGER,
      });
      const { after } = query;
      const notBefore = (e: { accountKey: string; productUid: string }) =>
        after === undefined ||
        e.accountKey > after.accountKey ||
        (e.accountKey === after.accountKey && e.productUid >= after.productUid);
      return all.filter(notBefore).slice(0, query.limit);
    },
  };
}

/** Keeps its reconciliation marks apart from the row and drops one whenever the row is rewritten. */
function markForgettingStore(): ReturnType<typeof memoryStore> {
  const inner = memoryStore();
  const marks = new Map<string, string>();
  const keyOf = (accountKey: string, productUid: string) => JSON.stringify([accountKey, productUid]);
  return {
    ...inner,
    async update(accountKey, productUid, change, facts) {
      const result = await inner.update(accountKey, productUid, change, facts);
      if (result.wrote) marks.delete(keyOf(accountKey, productUid));
      return result;
    },
    async markReconciled(key, at) {
      marks.set(keyOf(key.accountKey, key.productUid), at.toISOString());
    },
    async listDueEntitlements(query) {
      const all = await inner.listDueEntitlements({ ...query, limit: Number.MAX_SAFE_INTEGER });
      return all
        .filter(
          (e) => dueReason(e, marks.get(keyOf(e.accountKey, e.productUid)) ?? null, query) !== undefined,
        )
        .slice(0, query.limit);
    },
  };
}

/** Keeps pending payments but drops what a checkout needs to be continued. */
function urlDroppingStore(): ReturnType<typeof memoryStore> {
  const inner = memoryStore();
  return {
    ...inner,
    recordPendingPayment: ({ checkoutUrl: _url, expiresAt: _expiry, ...payment }) =>
      inner.recordPendingPayment(payment),
  };
}

/** The memory store's pruneEndedPayments, which it always has (optional in the contract). */
function pruneOf(store: ReturnType<typeof memoryStore>) {
  const prune = store.pruneEndedPayments?.bind(store);
  if (prune === undefined) throw new Error('memoryStore has pruneEndedPayments');
  return prune;
}

/** Prunes ended payments with `<=`: one that ended at the cut-off goes too. */
function cutOffIncludedStore(): ReturnType<typeof memoryStore> {
  const inner = memoryStore();
  const prune = pruneOf(inner);
  return {
    ...inner,
    pruneEndedPayments: (endedBefore) => prune(new Date(endedBefore.getTime() + 1)),
  };
}

/** Prunes by when a payment was recorded (`recorded_at`): old checkouts still open go too. */
function openPruningStore(): ReturnType<typeof memoryStore> {
  const inner = memoryStore();
  const prune = pruneOf(inner);
  return {
    ...inner,
    async pruneEndedPayments(endedBefore) {
      const open = await inner.listPendingPayments({ limit: Number.MAX_SAFE_INTEGER });
      const old = open.filter((payment) => Date.parse(payment.recordedAt) < endedBefore.getTime());
      for (const payment of old) await inner.removePendingPayment(payment.paymentUid);
      return old.length + (await prune(endedBefore));
    },
  };
}

/** Prunes right but says it removed nothing (a DELETE whose row count is not read). */
function uncountedPruneStore(): ReturnType<typeof memoryStore> {
  const inner = memoryStore();
  const prune = pruneOf(inner);
  return {
    ...inner,
    async pruneEndedPayments(endedBefore) {
      await prune(endedBefore);
      return 0;
    },
  };
}

/** Checks, yields, then marks: two concurrent claims both see nothing and both answer new. */
function racyLedger(): EventLedger {
  const states = new Map<string, 'in_progress' | 'completed'>();
  return {
    async claim(key) {
      const state = states.get(key);
      await nextTick();
      if (state === 'completed') return { status: 'duplicate' };
      if (state === 'in_progress') return { status: 'in_progress' };
      states.set(key, 'in_progress');
      return { status: 'new', token: 1 };
    },
    async complete(key) {
      states.set(key, 'completed');
    },
    async release(key) {
      if (states.get(key) === 'in_progress') states.delete(key);
    },
  };
}

/** Releases by key alone, whoever holds the claim: a late release frees a claim taken over since. */
function tokenlessLedger(): EventLedger {
  const inner = memoryLedger({ leaseMs: 100 });
  const tokens = new Map<string, ClaimToken>();
  return {
    async claim(key) {
      const claim = await inner.claim(key);
      if (claim.status === 'new') tokens.set(key, claim.token);
      return claim;
    },
    complete: (key, token) => inner.complete(key, token),
    release: (key) => inner.release(key, tokens.get(key) ?? 0),
  };
}

function check<Subject>(
  checks: readonly { name: string; run: (s: Subject) => Promise<void> }[],
  fragment: string,
) {
  const found = checks.find((candidate) => candidate.name.includes(fragment));
  if (!found) throw new Error(`no check named like "${fragment}"`);
  return found;
}

describe('the conformance suites', () => {
  it('catch a store that loses concurrent updates', async () => {
    const atomicity = check(storeChecks, 'concurrent updates of one entitlement');
    await expect(atomicity.run(lossyStore())).rejects.toThrow();
    await expect(atomicity.run(memoryStore())).resolves.toBeUndefined();
    const spends = check(storeChecks, 'concurrent spends');
    await expect(spends.run(lossyStore())).rejects.toThrow();
    await expect(spends.run(memoryStore())).resolves.toBeUndefined();
  });

  it.each([1, 2, 3])(
    'catch a store that spends with an atomic counter but loses the days of the spends (run %i)',
    async () => {
      const counted = check(storeChecks, 'concurrent spends of 5 units');
      const days = check(storeChecks, 'concurrent spends of 5 day passes');
      // The count alone looks right: only the days tell.
      await expect(counted.run(counterOnlyStore())).resolves.toBeUndefined();
      await expect(days.run(counterOnlyStore())).rejects.toThrow(/each spend adds its day/);
      await expect(days.run(lossyStore())).rejects.toThrow();
      await expect(days.run(memoryStore())).resolves.toBeUndefined();
    },
  );

  it('catch a store that keeps no facts, or keeps them when nothing is written', async () => {
    const facts = check(storeChecks, 'which facts it already holds');
    const dedupe = check(storeChecks, 'concurrent updates of one entitlement');
    const writesNothing = check(storeChecks, 'records no fact');
    await expect(facts.run(forgetfulStore())).rejects.toThrow();
    await expect(dedupe.run(forgetfulStore())).rejects.toThrow();
    await expect(writesNothing.run(eagerStore())).rejects.toThrow();
    await expect(writesNothing.run(memoryStore())).resolves.toBeUndefined();
  });

  // Each broken store fails its check in three runs of three: the checks do not depend on luck.
  it.each([1, 2, 3])('catch the broken variants a partner store can have (run %i)', async () => {
    const firstUpdates = check(storeChecks, 'concurrent first updates of a new entitlement');
    const oneOrder = check(storeChecks, 'one order delivered many times at once');
    const keys = check(storeChecks, 'differ only in case or in Unicode normalisation');
    await expect(firstUpdates.run(firstUpdateRacingStore())).rejects.toThrow();
    await expect(oneOrder.run(lateFactsStore())).rejects.toThrow();
    await expect(keys.run(caseFoldingStore())).rejects.toThrow();
    for (const sound of [firstUpdates, oneOrder, keys])
      await expect(sound.run(memoryStore())).resolves.toBeUndefined();
  });

  it('catch a store that misreports what an update replaced or whether it wrote', async () => {
    const replaced = check(storeChecks, 'resolves to it, what it stored');
    const declined = check(storeChecks, 'returns undefined writes nothing');
    await expect(replaced.run(carelessReporter())).rejects.toThrow();
    await expect(declined.run(carelessReporter())).rejects.toThrow();
    await expect(replaced.run(memoryStore())).resolves.toBeUndefined();
    await expect(declined.run(memoryStore())).resolves.toBeUndefined();
  });

  it('catch a store that hands out live records', async () => {
    const snapshot = check(storeChecks, 'does not change when the store changes');
    await expect(snapshot.run(leakyStore())).rejects.toThrow();
  });

  it('catch a history that lists oldest first, drops fields, or prunes the wrong side', async () => {
    const inner = () => memoryStore();
    const oldestFirst = (): HistoryStore => {
      const store = inner();
      return { ...store, listHistory: async (query) => (await store.listHistory(query)).reverse() };
    };
    const fieldDropping = (): HistoryStore => {
      const store = inner();
      return { ...store, appendHistory: (entry) => store.appendHistory({ ...entry, unitsAfter: null }) };
    };
    const pruningAfter = (): HistoryStore => {
      const store = inner();
      return {
        ...store,
        pruneHistory: async (before) => store.pruneHistory(new Date(before.getTime() + 3_600_000)),
      };
    };
    const listing = check(historyChecks, 'newest first');
    const kept = check(historyChecks, 'every field kept');
    const pruning = check(historyChecks, 'pruneHistory removes');
    await expect(listing.run(oldestFirst())).rejects.toThrow();
    await expect(kept.run(fieldDropping())).rejects.toThrow();
    await expect(pruning.run(pruningAfter())).rejects.toThrow();
    for (const one of [listing, kept, pruning]) await expect(one.run(inner())).resolves.toBeUndefined();
  });

  it("catch a store that forgets a pending checkout's URL", async () => {
    const pending = check(reconcileChecks, 'pending payments of one account');
    await expect(pending.run(urlDroppingStore())).rejects.toThrow();
    await expect(pending.run(memoryStore())).resolves.toBeUndefined();
  });

  it('catch a store that prunes ended payments at the cut-off, prunes open ones, or miscounts', async () => {
    const pruning = check(reconcileChecks, 'pruneEndedPayments');
    await expect(pruning.run(cutOffIncludedStore()), 'cut-off included').rejects.toThrow(/the two ended/);
    await expect(pruning.run(openPruningStore()), 'open ones pruned').rejects.toThrow(/the two ended/);
    await expect(pruning.run(uncountedPruneStore()), 'uncounted').rejects.toThrow(/the two ended/);
    await expect(pruning.run(memoryStore())).resolves.toBeUndefined();
  });

  it.each([1, 2, 3])(
    'catch a store that breaks the reconciliation contract: order, cursor, marks (run %i)',
    async () => {
      const listing = check(reconcileChecks, 'listDueEntitlements answers what dueReason says');
      const marking = check(reconcileChecks, 'markReconciled makes an entitlement not due');
      await expect(listing.run(unsortedDueStore()), 'unsorted').rejects.toThrow();
      await expect(listing.run(inclusiveCursorStore()), 'inclusive cursor').rejects.toThrow();
      await expect(marking.run(markForgettingStore()), 'forgotten marks').rejects.toThrow();
      await expect(listing.run(memoryStore())).resolves.toBeUndefined();
      await expect(marking.run(memoryStore())).resolves.toBeUndefined();
    },
  );

  it.each([1, 2, 3])(
    'catch a ledger whose late release frees a claim taken over since (run %i)',
    async () => {
      const late = check(ledgerLeaseChecks(100), 'late release');
      await expect(late.run(tokenlessLedger())).rejects.toThrow();
      await expect(late.run(memoryLedger({ leaseMs: 100 }))).resolves.toBeUndefined();
    },
  );

  it.each([1, 2, 3])('catch a ledger whose claim is not atomic (run %i)', async () => {
    const exclusive = check(ledgerChecks, 'concurrent claims');
    await expect(exclusive.run(racyLedger())).rejects.toThrow();
    await expect(exclusive.run(memoryLedger())).resolves.toBeUndefined();
  });
});
