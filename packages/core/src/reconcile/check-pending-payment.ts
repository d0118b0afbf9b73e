import { hasAccess } from '../access/has-access.js';
import { applyPaymentRead } from '../apply/apply-payment-read.js';
import { settleCheckout } from '../apply/checkout-funnel-facts.js';
import type { AccessContext } from '../apply/listeners.js';
import { isPaymentOpen } from '../apply/pending-payments.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { Payment } from '../schemas/payment.js';
import type { PendingPayment } from '../store/reconcile-store.js';
import { type CheckContext, type CheckResult, sameRecord } from './check-context.js';
import { readPolitely } from './read-politely.js';
import type { ReconcileChange } from './reconcile-report.js';

/**
 * Settles one payment a return page left pending. A payment its webhook already applied is
 * forgotten without a read; otherwise `GET /v1/payments/{uid}` (the synchronous source of truth)
 * decides: SUCCEEDED grants through applyPaymentRead (for a subscription, with its subscription
 * read too), a failed, expired or canceled one is kept as ended with its reason (or forgotten by
 * a store that cannot keep it), an open one is kept for the next run
 * until it is older than `pendingMaxAgeMs`.
 */
export async function checkPendingPayment(
  pending: PendingPayment,
  context: CheckContext,
): Promise<CheckResult> {
  const { client, store, budget } = context;
  const forget = () => store.removePendingPayment(pending.paymentUid);
  const { accountKey } = pending;
  const paid = () =>
    settleCheckout(
      store,
      context,
      { payment: { paymentUid: pending.paymentUid, status: 'SUCCEEDED' }, accountKey },
      context.now(),
    );
  if ((await store.findByPaymentUid(pending.paymentUid)) !== undefined) {
    await paid();
    return { kind: 'settled' };
  }
  const requestOptions = budget.signal ? { signal: budget.signal } : undefined;
  const payment = await readPolitely(budget, () =>
    client.payments.retrieve(pending.paymentUid, requestOptions),
  );
  if (isPaymentOpen(payment.status)) {
    const ageMs = context.now().getTime() - Date.parse(pending.recordedAt);
    if (ageMs <= context.pendingMaxAgeMs) return { kind: 'unchanged' };
    await forget();
    return { kind: 'settled' };
  }
  if (payment.status !== 'SUCCEEDED') {
    await settleCheckout(store, context, { payment, accountKey }, context.now());
    return { kind: 'settled' };
  }
  const { result, listenerError } = await grantPaidPayment(payment, context);
  if (result.outcome === 'unknown_offer' || result.outcome === 'no_account') {
    // Kept: once the offer is added (or the metadata fixed on your side), the next run grants it.
    return {
      kind: 'failed',
      code: result.outcome,
      message:
        result.outcome === 'unknown_offer'
          ? `Payment ${payment.paymentUid} is for offer ${payment.offerUid}, which is not in your offers: add it.`
          : `Payment ${payment.paymentUid} names no account (metadata or subscriberUid).`,
    };
  }
  await paid();
  const change = changeOf(payment, result.previous, result.entitlement, context.now());
  if (change === undefined) return { kind: 'settled' };
  return listenerError === undefined
    ? { kind: 'settled', change }
    : { kind: 'settled', change, listenerError };
}

/**
 * A succeeded payment granted as the return page would (applyPaymentRead, with its subscription
 * read within the run's budget); a throw of the app's accessGranted is kept, to be reported with
 * the change, not lost with the grant.
 */
async function grantPaidPayment(payment: Payment, context: CheckContext) {
  const { client, store, budget } = context;
  const requestOptions = budget.signal ? { signal: budget.signal } : undefined;
  let listenerError: unknown;
  const result = await applyPaymentRead(payment, {
    store,
    offers: context.offers,
    ...context.accountKeys,
    now: context.now,
    recordHistory: context.recordHistory,
    recordFacts: context.recordFacts,
    historySource: 'reconcile',
    on: {
      accessGranted: async (access: AccessContext) => {
        try {
          await context.on.accessGranted?.({ ...access, source: 'reconciliation' });
        } catch (error) {
          listenerError = error;
        }
      },
    },
    readSubscription: (subscriptionUid) =>
      readPolitely(budget, () => client.subscriptions.retrieve(subscriptionUid, requestOptions)),
  });
  return { result, listenerError };
}

/** What the run changed for the payment's entitlement, if anything: the record before and after, and whether access began. */
function changeOf(
  payment: Payment,
  before: Entitlement | undefined,
  after: Entitlement | undefined,
  now: Date,
): ReconcileChange | undefined {
  if (after === undefined || sameRecord(before, after)) return undefined;
  const granted = !hasAccess(before, now) && hasAccess(after, now);
  return {
    accountKey: after.accountKey,
    productUid: after.productUid,
    reason: 'pending_payment',
    paymentUid: payment.paymentUid,
    ...(payment.subscriptionUid ? { subscriptionUid: payment.subscriptionUid } : {}),
    before,
    after,
    ...(granted ? { access: 'granted' as const } : {}),
  };
}
