import { settleCheckout } from '../apply/checkout-funnel-facts.js';
import { isPaymentOpen } from '../apply/pending-payments.js';
import { throwClientFailure } from './client-failure.js';
import type { RouteInput } from './partner-route-types.js';
import { readOwnPayment } from './read-own-payment.js';
import type { RouteContext } from './route-context.js';
import { routeError } from './route-error.js';
import { identifier } from './route-field-values.js';
import { guardStateChange } from './route-guard.js';
import type { RouteResult } from './route-result.js';

/**
 * Cancels a payment of this account still waiting on the subscriber, as the service allows only
 * then, and forgets it as pending.
 */
export async function cancelPayment(context: RouteContext, input: RouteInput): Promise<RouteResult> {
  const { account } = guardStateChange(context, input);
  const paymentUid = identifier(input.fields, 'paymentUid');
  const payment = await readOwnPayment(context, account, paymentUid, 'cancel_payment');
  if (payment.status === 'REQUIRES_ACTION') {
    try {
      await context.client.payments.cancel(paymentUid);
    } catch (error) {
      throwClientFailure(context, error, 'cancel_payment', 'No such payment.');
    }
  } else if (payment.status !== 'CANCELED') {
    // Consent given (the operator is charging), or already ended another way: the spec allows a
    // cancel only while the payment waits on the subscriber.
    if (!isPaymentOpen(payment.status)) {
      await settleCheckout(context.store, context, { payment, accountKey: account }, context.now());
    }
    throw routeError('conflict', 'This payment can no longer be cancelled.');
  }
  const canceled = { paymentUid, status: 'CANCELED' } as const;
  await settleCheckout(context.store, context, { payment: canceled, accountKey: account }, context.now());
  return {
    type: 'view',
    status: 200,
    view: { kind: 'payment_canceled', paymentUid, offer: context.offers.get(payment.offerUid) },
  };
}
