import type { Payment } from '../schemas/payment.js';
import { throwClientFailure } from './client-failure.js';
import type { RouteContext } from './route-context.js';
import { routeError } from './route-error.js';

/**
 * The payment read server-side (never what a query string says: the read is the synchronous
 * source of truth), and only when it belongs to `account`: another account's is "not found".
 */
export async function readOwnPayment(
  context: RouteContext,
  account: string,
  paymentUid: string,
  route: string,
): Promise<Payment> {
  let payment: Payment;
  try {
    payment = await context.client.payments.retrieve(paymentUid);
  } catch (error) {
    throwClientFailure(context, error, route, 'No such payment.');
  }
  if (payment.metadata?.[context.accountKeyField] !== account) {
    throw routeError('not_found', 'No such payment.');
  }
  return payment;
}
