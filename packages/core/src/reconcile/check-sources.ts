import type { Entitlement, EntitlementKey } from '../schemas/entitlement.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import type { DueEntitlementsQuery, PendingPayment, ReconcileStore } from '../store/reconcile-store.js';
import { cursorSource, pagedSource } from './paging.js';

type Source<T> = () => Promise<T | undefined>;

/** The entitlements a run checks: the store's due ones page by page, or one account's with a subscription. */
export async function entitlementSource(
  store: Pick<EntitlementStore, 'listByAccount'> & ReconcileStore,
  query: Omit<DueEntitlementsQuery, 'limit'>,
  pageSize: number,
  forAccount: string | undefined,
): Promise<Source<Entitlement>> {
  if (forAccount !== undefined) {
    const entitlements = await store.listByAccount(forAccount);
    return listSource(entitlements.filter((entitlement) => entitlement.subscriptionUid !== null));
  }
  const { listDuePage } = store;
  if (listDuePage !== undefined) {
    return cursorSource((cursor) =>
      listDuePage.call(store, { ...query, ...(cursor === undefined ? {} : { cursor }), limit: pageSize }),
    );
  }
  return pagedSource<Entitlement>(
    (after) =>
      store.listDueEntitlements({ ...query, ...(after ? { after: keyOf(after) } : {}), limit: pageSize }),
    pageSize,
  );
}

/** The pending payments a run reads: all, page by page, or one account's. */
export async function pendingPaymentSource(
  store: ReconcileStore,
  pageSize: number,
  forAccount: string | undefined,
): Promise<Source<PendingPayment>> {
  if (forAccount !== undefined) {
    // Those that ended unpaid are kept for the account's pages, not read again.
    const ofAccount = await store.listPendingPaymentsOfAccount(forAccount);
    return listSource(ofAccount.filter((payment) => payment.ended === undefined));
  }
  return pagedSource<PendingPayment>(
    (after) => store.listPendingPayments({ ...(after ? { after: after.paymentUid } : {}), limit: pageSize }),
    pageSize,
  );
}

/** A list as a source runBounded takes: the next item, undefined once done. */
function listSource<T>(items: readonly T[]): Source<T> {
  let next = 0;
  return async () => items[next++];
}

export function keyOf(key: EntitlementKey): EntitlementKey {
  return { accountKey: key.accountKey, productUid: key.productUid };
}
