import type { CheckoutRecord, CheckoutRecordQuery } from '../store/checkout-record.js';
import type { PendingPayment } from '../store/reconcile-store.js';

/**
 * The record of a set of checkouts from each account's pending payments (open and ended): those
 * asked for, in the order they started (then by paymentUid), each payment once.
 */
export function checkoutRecordOf(
  query: CheckoutRecordQuery,
  paymentsOfAccounts: readonly (readonly PendingPayment[])[],
  at: Date,
): CheckoutRecord {
  const wanted = query.paymentUids === undefined ? undefined : new Set(query.paymentUids);
  const byUid = new Map<string, PendingPayment>();
  for (const payment of paymentsOfAccounts.flat()) {
    if (wanted !== undefined && !wanted.has(payment.paymentUid)) continue;
    if (query.subscriberUid !== undefined && payment.ended?.subscriberUid !== query.subscriberUid) continue;
    byUid.set(payment.paymentUid, payment);
  }
  const payments = [...byUid.values()].sort(
    (a, b) =>
      Date.parse(a.recordedAt) - Date.parse(b.recordedAt) ||
      (a.paymentUid < b.paymentUid ? -1 : a.paymentUid > b.paymentUid ? 1 : 0),
  );
  return { at: at.toISOString(), accountKeys: [...new Set(query.accountKeys)], payments };
}
