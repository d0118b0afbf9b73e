import { optionError } from '../../errors/option-error.js';
import { dueReason } from '../../reconcile/due.js';
import type { Entitlement, EntitlementKey } from '../entitlement.js';
import type { EntitlementChange, EntitlementStore, PendingPayment } from './entitlement-store.js';

/** Where one entitlement lives; the indexes point at slots, so a write replaces one reference. */
interface Slot {
  entitlement: Entitlement;
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
 * are lost on restart. Updates are atomic because each runs without yielding to the event loop.
 * Records are handed out without copying: the Entitlement type is readonly throughout, and every
 * change makes a new record, so one already returned never changes.
 *
 * @example
 * const store = memoryStore();
 * const handler = createWebhookHandler({ secrets, store, ledger: memoryLedger(), offers });
 */
export function memoryStore(): EntitlementStore {
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
    const slot = { entitlement };
    const products = accounts.get(entitlement.accountKey);
    if (products === undefined) accounts.set(entitlement.accountKey, [slot]);
    else products.push(slot);
    return slot;
  }

  function index(slot: Slot, previous: Entitlement | undefined): void {
    const next = slot.entitlement;
    if (next.subscriptionUid !== (previous?.subscriptionUid ?? null)) {
      if (previous?.subscriptionUid) bySubscription.delete(previous.subscriptionUid);
      if (next.subscriptionUid) bySubscription.set(next.subscriptionUid, slot);
    }
    // Rules keep an unchanged id list as the same array, so most writes skip this loop. Otherwise
    // they add ids to a sorted list: one walk finds the new ones (an id out of step is only set again).
    if (next.paymentUids !== previous?.paymentUids) {
      const known = previous?.paymentUids ?? [];
      let k = 0;
      for (const paymentUid of next.paymentUids) {
        if (known[k] === paymentUid) k++;
        else byPayment.set(paymentUid, slot);
      }
    }
  }

  return {
    async get(accountKey, productUid) {
      return slotOf(accountKey, productUid)?.entitlement;
    },
    async update(accountKey: string, productUid: string, change: EntitlementChange) {
      const slot = slotOf(accountKey, productUid);
      const current = slot?.entitlement;
      const next = change(current);
      if (next === undefined || next === current) return current;
      if (next.accountKey !== accountKey || next.productUid !== productUid) {
        throw optionError(
          `memoryStore.update(${accountKey}, ${productUid})`,
          'change',
          `returned the entitlement of ${next.accountKey}, ${next.productUid}.`,
        );
      }
      if (slot === undefined) index(newSlot(next), undefined);
      else {
        slot.entitlement = next;
        index(slot, current);
      }
      return next;
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
      reconciledAt.set(keyText(key), at.toISOString());
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
