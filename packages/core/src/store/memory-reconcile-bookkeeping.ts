import { dueReason } from '../access/reconcile-deadline.js';
import type { Entitlement, EntitlementKey } from '../schemas/entitlement.js';
import type { PendingPayment, ReconcileStore } from './reconcile-store.js';

/**
 * Reconciliation's bookkeeping in memory, beside the records (which stay what the rules wrote):
 * when each entitlement was last reconciled, the pending payments, the locks.
 */
export function memoryReconcileBookkeeping(all: () => Iterable<Entitlement>): ReconcileStore {
  const reconciledAt = new Map<string, string>();
  const pendingPayments = new Map<string, PendingPayment>();
  const heldLocks = new Set<string>();
  const pendingInUidOrder = (keep: (payment: PendingPayment) => boolean) =>
    [...pendingPayments.values()].filter(keep).sort((a, b) => compareText(a.paymentUid, b.paymentUid));
  return {
    async listDueEntitlements(query) {
      const due: Entitlement[] = [];
      for (const entitlement of all()) {
        if (query.after !== undefined && compareKeys(entitlement, query.after) <= 0) continue;
        const checked = reconciledAt.get(keyText(entitlement)) ?? null;
        if (dueReason(entitlement, checked, query) !== undefined) due.push(entitlement);
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
      return pendingInUidOrder(
        (payment) => payment.ended === undefined && (after === undefined || payment.paymentUid > after),
      ).slice(0, limit);
    },
    async listPendingPaymentsOfAccount(accountKey) {
      return pendingInUidOrder((payment) => payment.accountKey === accountKey);
    },
    async removePendingPayment(paymentUid) {
      pendingPayments.delete(paymentUid);
    },
    async endPendingPayment(paymentUid, ending) {
      const payment = pendingPayments.get(paymentUid);
      if (payment === undefined) return;
      const failureCode = ending.failureCode ?? payment.ended?.failureCode;
      const subscriberUid = ending.subscriberUid ?? payment.ended?.subscriberUid;
      pendingPayments.set(paymentUid, {
        ...payment,
        ended: {
          status: ending.status,
          at: payment.ended?.at ?? ending.at,
          ...(failureCode !== undefined ? { failureCode } : {}),
          ...(subscriberUid !== undefined ? { subscriberUid } : {}),
        },
      });
    },
    async pruneEndedPayments(endedBefore) {
      let removed = 0;
      for (const [paymentUid, payment] of pendingPayments) {
        if (payment.ended === undefined || Date.parse(payment.ended.at) >= endedBefore.getTime()) continue;
        pendingPayments.delete(paymentUid);
        removed += 1;
      }
      return removed;
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
