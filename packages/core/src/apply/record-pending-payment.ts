import type { Payment } from '../schemas/payment.js';
import type { ReconcileStore } from '../store/reconcile-store.js';

/** Statuses after which a payment can still succeed: the return page shows "pending" for them. */
const STILL_OPEN = new Set<Payment['status']>([
  'REQUIRES_ACTION',
  'REQUIRES_START',
  'REQUIRES_CODE',
  'PROCESSING',
]);

export function isPaymentOpen(status: Payment['status']): boolean {
  return STILL_OPEN.has(status);
}

/**
 * What the return page calls when its read finds the payment still open: remembers it, so that
 * reconciliation reads it again if its webhook never lands (resolves to true when recorded). Does
 * nothing for a settled payment, or with a store that cannot remember payments.
 *
 * @example
 * const payment = await kit.client.payments.retrieve(paymentUid);
 * await recordPendingPayment(kit.store, payment, user.id);
 */
export async function recordPendingPayment(
  store: Partial<Pick<ReconcileStore, 'recordPendingPayment'>>,
  payment: Pick<Payment, 'paymentUid' | 'status' | 'productUid' | 'offerUid'>,
  accountKey: string,
  now: Date = new Date(),
): Promise<boolean> {
  if (!isPaymentOpen(payment.status) || store.recordPendingPayment === undefined) return false;
  await store.recordPendingPayment({
    paymentUid: payment.paymentUid,
    accountKey,
    productUid: payment.productUid,
    offerUid: payment.offerUid,
    recordedAt: now.toISOString(),
  });
  return true;
}
