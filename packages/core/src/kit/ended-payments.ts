import { isStillOpen } from '../access/offer-standing.js';
import type { EndedPayment, PendingPayment } from '../store/reconcile-store.js';

/**
 * The account's checkouts that ended unpaid, newest first: those the store keeps with their
 * ending (failed, cancelled, expired as a read found it, with the service's `failureCode`), and
 * those past their expiry that no read has settled yet, as EXPIRED at `expiresAt` (no code: the
 * service has not been asked).
 */
export function endedPaymentsOf(payments: readonly PendingPayment[], now: Date): EndedPayment[] {
  const ended = payments.flatMap((payment): EndedPayment[] => {
    if (payment.ended?.status === 'SUCCEEDED') return [];
    if (payment.ended !== undefined) return [{ ...payment, ended: payment.ended }];
    if (isStillOpen(payment, now) || payment.expiresAt === undefined) return [];
    return [{ ...payment, ended: { status: 'EXPIRED', at: payment.expiresAt } }];
  });
  return ended.sort(
    (a, b) => Date.parse(b.ended.at) - Date.parse(a.ended.at) || (a.paymentUid < b.paymentUid ? -1 : 1),
  );
}
