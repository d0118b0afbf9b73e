import type { Payment } from '../schemas/payment.js';
import type { PaymentEnding, ReconcileStore, ShownOffer } from '../store/reconcile-store.js';

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

/** A store that may keep pending payments: any, and it does when it is a ReconcileStore. */
export type PendingPaymentKeeper = Partial<
  Pick<
    ReconcileStore,
    'recordPendingPayment' | 'removePendingPayment' | 'listPendingPaymentsOfAccount' | 'endPendingPayment'
  >
>;

/**
 * What the checkout calls when it created a payment, and the return page when its read finds the
 * payment still open: remembers it (with its checkout URL and expiry when the payment has them),
 * so that reconciliation reads it again if its webhook never lands and the checkout continues it
 * rather than start a second one. Resolves to true when recorded. Does nothing for a settled
 * payment, or with a store that cannot remember payments.
 *
 * @example
 * const payment = await kit.client.payments.retrieve(paymentUid);
 * await rememberPendingPayment(kit.store, payment, user.id);
 */
export async function rememberPendingPayment(
  store: PendingPaymentKeeper,
  payment: Pick<Payment, 'paymentUid' | 'status' | 'productUid' | 'offerUid'> &
    Partial<Pick<Payment, 'checkoutUrl' | 'expiresAt'>>,
  accountKey: string,
  now: Date = new Date(),
  shown?: ShownOffer,
): Promise<boolean> {
  if (!isPaymentOpen(payment.status) || store.recordPendingPayment === undefined) return false;
  await store.recordPendingPayment({
    paymentUid: payment.paymentUid,
    accountKey,
    productUid: payment.productUid,
    offerUid: payment.offerUid,
    recordedAt: now.toISOString(),
    ...(payment.checkoutUrl ? { checkoutUrl: payment.checkoutUrl } : {}),
    ...(payment.expiresAt ? { expiresAt: payment.expiresAt } : {}),
    ...(shown ? { shown } : {}),
  });
  return true;
}

/** The statuses a checkout ends unpaid with. */
const ENDED = new Set<Payment['status']>(['SUCCEEDED', 'FAILED', 'EXPIRED', 'CANCELED']);

/**
 * What the kit does with a pending payment once it settled (its webhook, a read or a cancel says
 * so): it is kept with how it ended and its `failureCode` when the service gave one
 * (`endPendingPayment`), so that the account's page and `kit.explain` say why one did not go
 * through and a complaint's record shows what the shop showed for each; forgotten when the store
 * cannot keep it. Nothing when the store keeps no pending payments.
 */
export async function settlePendingPayment(
  store: PendingPaymentKeeper,
  payment: Pick<Payment, 'paymentUid' | 'status'> & Partial<Pick<Payment, 'failureCode' | 'subscriberUid'>>,
  now: Date,
): Promise<void> {
  if (ENDED.has(payment.status) && store.endPendingPayment !== undefined) {
    const ending: PaymentEnding = {
      status: payment.status as PaymentEnding['status'],
      at: now.toISOString(),
      ...(payment.failureCode !== undefined ? { failureCode: payment.failureCode } : {}),
      ...(payment.subscriberUid !== undefined ? { subscriberUid: payment.subscriberUid } : {}),
    };
    await store.endPendingPayment(payment.paymentUid, ending);
    return;
  }
  await store.removePendingPayment?.(payment.paymentUid);
}
