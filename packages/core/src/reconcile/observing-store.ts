import type { Entitlement } from '../schemas/entitlement.js';
import type { EntitlementStore } from '../store/entitlement-store.js';

/**
 * The store's five record methods, except that `update` notes the record its change was handed:
 * the committed record just before the write. The rules' own functions (applySubscriptionRead,
 * grantFromPayment) then run unchanged, and the report still gets an exact "before".
 */
export function observingStore(store: EntitlementStore): {
  store: EntitlementStore;
  before: () => Entitlement | undefined;
} {
  let seen: Entitlement | undefined;
  const observed: EntitlementStore = {
    get: (accountKey, productUid) => store.get(accountKey, productUid),
    update: (accountKey, productUid, change, facts) =>
      store.update(
        accountKey,
        productUid,
        (current, known) => {
          seen = current;
          return change(current, known);
        },
        facts,
      ),
    listByAccount: (accountKey) => store.listByAccount(accountKey),
    findBySubscriptionUid: (subscriptionUid) => store.findBySubscriptionUid(subscriptionUid),
    findByPaymentUid: (paymentUid) => store.findByPaymentUid(paymentUid),
  };
  return { store: observed, before: () => seen };
}
