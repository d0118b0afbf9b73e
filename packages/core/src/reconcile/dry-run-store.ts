import { NO_KNOWN_FACTS } from '../access/facts.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import type { ReconcileStore } from '../store/reconcile-store.js';

/**
 * The store as a dry run sees it: reads go through, every write is computed and dropped. An
 * update hands `change` the stored record and whether its payment is already this entitlement's
 * (the fact a payment read decides on), and resolves to what would be stored; marks, pending
 * payments (ended ones too) and locks are left as they are.
 */
export function dryRunStore(store: EntitlementStore & ReconcileStore): EntitlementStore & ReconcileStore {
  return {
    get: (accountKey, productUid) => store.get(accountKey, productUid),
    listByAccount: (accountKey) => store.listByAccount(accountKey),
    findBySubscriptionUid: (uid) => store.findBySubscriptionUid(uid),
    findByPaymentUid: (uid) => store.findByPaymentUid(uid),
    listDueEntitlements: (query) => store.listDueEntitlements(query),
    ...(store.listDuePage ? { listDuePage: store.listDuePage.bind(store) } : {}),
    listPendingPayments: (query) => store.listPendingPayments(query),
    listPendingPaymentsOfAccount: (accountKey) => store.listPendingPaymentsOfAccount(accountKey),
    async update(accountKey, productUid, change, facts) {
      const current = await store.get(accountKey, productUid);
      const owner =
        facts?.paymentUid === undefined ? undefined : await store.findByPaymentUid(facts.paymentUid);
      const paymentKnown = owner?.accountKey === accountKey && owner.productUid === productUid;
      const next = change(current, paymentKnown ? { paymentUid: true, unitOrderId: false } : NO_KNOWN_FACTS);
      return { previous: current, next: next ?? current, wrote: false };
    },
    async markReconciled() {},
    async recordPendingPayment() {},
    async removePendingPayment() {},
    async endPendingPayment() {},
    async pruneEndedPayments() {
      return 0;
    },
    async tryLock() {
      return async () => {};
    },
  };
}
