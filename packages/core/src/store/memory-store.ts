import { type EntitlementFacts, type KnownFacts, NO_KNOWN_FACTS } from '../access/facts.js';
import { dueReason } from '../access/reconcile-deadline.js';
import { optionError } from '../errors/option-error.js';
import type { Entitlement, EntitlementKey } from '../schemas/entitlement.js';
import type { EntitlementChange, EntitlementStore, EntitlementUpdate } from './entitlement-store.js';
import type { HistoryStore } from './history-store.js';
import { DEFAULT_MEMORY_HISTORY_LIMIT, memoryHistory } from './memory-history.js';
import { memoryMetrics } from './memory-metrics.js';
import type { MetricsStore } from './metrics-store.js';
import type { PendingPayment, ReconcileStore } from './reconcile-store.js';

export interface MemoryStoreOptions {
  /** The most history entries kept; the oldest go first. Default 10 000. */
  historyLimit?: number;
}

/** Where one entitlement lives; the indexes point at slots, so a write replaces one reference. */
interface Slot {
  entitlement: Entitlement;
  /** CONSUMABLE: the orders whose unit is counted (created with the first). */
  unitOrderIds: Set<string> | undefined;
}

function byProductUid(a: Entitlement, b: Entitlement): number {
  return a.productUid < b.productUid ? -1 : a.productUid > b.productUid ? 1 : 0;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** (accountKey, productUid) order: the order reconciliation pages in. */
function compareKeys(a: EntitlementKey, b: EntitlementKey): number {
  return compareText(a.accountKey, b.accountKey) || compareText(a.productUid, b.productUid);
}

/** One string per entitlement key; NUL cannot occur in either part's JSON text. */
function keyText(key: EntitlementKey): string {
  return `${key.accountKey}\u0000${key.productUid}`;
}

/**
 * An in-process EntitlementStore, for development, tests and single-instance apps: entitlements
 * are lost on restart. It keeps reconciliation's bookkeeping, a bounded history and the business
 * view's daily totals too. Updates are atomic because each runs without yielding to the event loop.
 * Records are handed out without copying: the Entitlement type is readonly throughout, and every
 * change makes a new record, so one already returned never changes.
 *
 * @example
 * const store = memoryStore();
 * const handler = createWebhookHandler({ secrets, store, ledger: memoryLedger(), offers });
 */
export function memoryStore(
  options: MemoryStoreOptions = {},
): EntitlementStore & ReconcileStore & HistoryStore & MetricsStore {
  const history = memoryHistory(options.historyLimit ?? DEFAULT_MEMORY_HISTORY_LIMIT);
  const metrics = memoryMetrics();
  // An account holds a few products: a small array per account is cheaper than a Map.
  const accounts = new Map<string, Slot[]>();
  const bySubscription = new Map<string, Slot>();
  const byPayment = new Map<string, Slot>();
  // Reconciliation's bookkeeping, beside the records (which stay what the rules wrote).
  const reconciledAt = new Map<string, string>();
  const pendingPayments = new Map<string, PendingPayment>();
  const heldLocks = new Set<string>();

  function slotOf(accountKey: string, productUid: string): Slot | undefined {
    const products = accounts.get(accountKey);
    if (products === undefined) return undefined;
    for (const slot of products) if (slot.entitlement.productUid === productUid) return slot;
    return undefined;
  }

  function newSlot(entitlement: Entitlement): Slot {
    const slot: Slot = { entitlement, unitOrderIds: undefined };
    const products = accounts.get(entitlement.accountKey);
    if (products === undefined) accounts.set(entitlement.accountKey, [slot]);
    else products.push(slot);
    return slot;
  }

  function knownFacts(
    slot: Slot | undefined,
    facts: EntitlementFacts | undefined,
    paymentOwner: Slot | undefined,
  ): KnownFacts {
    if (slot === undefined || facts === undefined) return NO_KNOWN_FACTS;
    const paymentUid = paymentOwner === slot;
    const unitOrderId = facts.unitOrderId !== undefined && slot.unitOrderIds?.has(facts.unitOrderId) === true;
    return paymentUid || unitOrderId ? { paymentUid, unitOrderId } : NO_KNOWN_FACTS;
  }

  /**
   * Records the facts; `paymentOwner` is whom the payment was recorded for before (it stays theirs).
   * True when one was new.
   */
  function record(slot: Slot, facts: EntitlementFacts | undefined, paymentOwner: Slot | undefined): boolean {
    if (facts === undefined) return false;
    const { paymentUid, unitOrderId } = facts;
    let added = false;
    if (paymentUid !== undefined && paymentOwner === undefined) {
      byPayment.set(paymentUid, slot);
      added = true;
    }
    if (unitOrderId !== undefined) {
      if (slot.unitOrderIds === undefined) slot.unitOrderIds = new Set([unitOrderId]);
      else if (slot.unitOrderIds.has(unitOrderId)) return added;
      else slot.unitOrderIds.add(unitOrderId);
      added = true;
    }
    return added;
  }

  function indexSubscription(slot: Slot, previous: Entitlement | undefined): void {
    const next = slot.entitlement;
    if (next.subscriptionUid !== (previous?.subscriptionUid ?? null)) {
      if (previous?.subscriptionUid) bySubscription.delete(previous.subscriptionUid);
      if (next.subscriptionUid) bySubscription.set(next.subscriptionUid, slot);
    }
  }

  return {
    ...history,
    ...metrics,
    async get(accountKey, productUid) {
      return slotOf(accountKey, productUid)?.entitlement;
    },
    async update(
      accountKey: string,
      productUid: string,
      change: EntitlementChange,
      facts?: EntitlementFacts,
    ): Promise<EntitlementUpdate> {
      const slot = slotOf(accountKey, productUid);
      const current = slot?.entitlement;
      // Looked up once: it answers both `known` and whether the write records the payment.
      const paymentOwner = facts?.paymentUid === undefined ? undefined : byPayment.get(facts.paymentUid);
      const next = change(current, knownFacts(slot, facts, paymentOwner));
      if (next === undefined) return { previous: current, next: current, wrote: false };
      if (next === current) {
        const wrote = slot !== undefined && record(slot, facts, paymentOwner);
        return { previous: current, next: current, wrote };
      }
      if (next.accountKey !== accountKey || next.productUid !== productUid) {
        throw optionError(
          `memoryStore.update(${accountKey}, ${productUid})`,
          'change',
          `returned the entitlement of ${next.accountKey}, ${next.productUid}.`,
        );
      }
      const written = slot ?? newSlot(next);
      written.entitlement = next;
      indexSubscription(written, current);
      record(written, facts, paymentOwner);
      return { previous: current, next, wrote: true };
    },
    async listByAccount(accountKey) {
      const products = accounts.get(accountKey);
      if (products === undefined) return [];
      return products.map((slot) => slot.entitlement).sort(byProductUid);
    },
    async findBySubscriptionUid(subscriptionUid) {
      return bySubscription.get(subscriptionUid)?.entitlement;
    },
    async findByPaymentUid(paymentUid) {
      return byPayment.get(paymentUid)?.entitlement;
    },
    async listDueEntitlements(query) {
      const due: Entitlement[] = [];
      for (const products of accounts.values()) {
        for (const { entitlement } of products) {
          if (query.after !== undefined && compareKeys(entitlement, query.after) <= 0) continue;
          const checked = reconciledAt.get(keyText(entitlement)) ?? null;
          if (dueReason(entitlement, checked, query) !== undefined) due.push(entitlement);
        }
      }
      return due.sort(compareKeys).slice(0, query.limit);
    },
    async markReconciled(key, at) {
      // The later of two marks stands, as in SQL (GREATEST): a slow run cannot move it back.
      const text = keyText(key);
      const held = reconciledAt.get(text);
      if (held === undefined || Date.parse(held) < at.getTime()) reconciledAt.set(text, at.toISOString());
    },
    async recordPendingPayment(payment) {
      if (!pendingPayments.has(payment.paymentUid)) pendingPayments.set(payment.paymentUid, { ...payment });
    },
    async listPendingPayments({ after, limit }) {
      return [...pendingPayments.values()]
        .filter((payment) => after === undefined || payment.paymentUid > after)
        .sort((a, b) => compareText(a.paymentUid, b.paymentUid))
        .slice(0, limit);
    },
    async listPendingPaymentsOfAccount(accountKey) {
      return [...pendingPayments.values()]
        .filter((payment) => payment.accountKey === accountKey)
        .sort((a, b) => compareText(a.paymentUid, b.paymentUid));
    },
    async removePendingPayment(paymentUid) {
      pendingPayments.delete(paymentUid);
    },
    // One process holds every memory store's records, so the lock only keeps two runs in this
    // process apart; instances that each have a memory store share nothing to protect.
    async tryLock(name) {
      if (heldLocks.has(name)) return undefined;
      heldLocks.add(name);
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        heldLocks.delete(name);
      };
    },
  };
}
