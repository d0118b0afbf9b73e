import { hasAccess } from '../access/has-access.js';
import { settleCheckout } from '../apply/checkout-funnel-facts.js';
import { isPaymentOpen, rememberPendingPayment } from '../apply/pending-payments.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { Payment, PaymentStatus } from '../schemas/payment.js';
import { isExpectedCheckoutUrl } from './checkout-url.js';
import type { RouteInput } from './partner-route-types.js';
import { readOwnPayment } from './read-own-payment.js';
import type { RouteContext } from './route-context.js';
import { identifier } from './route-field-values.js';
import { signedIn } from './route-guard.js';
import type { ReturnState, RouteResult } from './route-result.js';

const RETURN_STATE: Record<PaymentStatus, ReturnState> = {
  SUCCEEDED: 'succeeded',
  PROCESSING: 'pending',
  REQUIRES_ACTION: 'pending',
  REQUIRES_START: 'pending',
  REQUIRES_CODE: 'pending',
  FAILED: 'failed',
  EXPIRED: 'failed',
  CANCELED: 'failed',
};

/**
 * Where a return is settled: the payment read server-side, remembered while it is open (so
 * reconciliation reads it again if its webhook never lands, and the checkout continues it),
 * forgotten as pending once settled, and granted when it succeeded (`grantSucceededPayment`).
 */
export async function returnPage(
  context: RouteContext,
  { accountKey, fields }: RouteInput,
): Promise<RouteResult> {
  const { store, now } = context;
  const account = signedIn(accountKey);
  const payment = await readOwnPayment(context, account, identifier(fields, 'paymentUid'), 'return');
  if (isPaymentOpen(payment.status)) await rememberPendingPayment(store, payment, account, now());
  else await settleCheckout(store, context, { payment, accountKey: account }, now());
  const granted = payment.status === 'SUCCEEDED' ? await context.grantSucceededPayment(payment) : undefined;
  const entitlement = granted?.entitlement ?? (await store.get(account, payment.productUid));
  return {
    type: 'view',
    status: 200,
    view: {
      kind: 'return',
      state: RETURN_STATE[payment.status],
      paymentUid: payment.paymentUid,
      paymentStatus: payment.status,
      failureCode: payment.status === 'FAILED' ? payment.failureCode : undefined,
      offerOnceTrialUsed: trialUsedByLine(context, payment),
      continueUrl:
        payment.status === 'REQUIRES_ACTION' &&
        isExpectedCheckoutUrl(payment.checkoutUrl, payment.paymentUid, context.checkoutBaseUrl)
          ? payment.checkoutUrl
          : undefined,
      expiresAt: payment.expiresAt,
      offer: context.offers.get(payment.offerUid),
      entitlement,
      hasAccess: hasAccess(entitlement, now()),
    },
  };
}

/** A payment refused SUB-108 shows the trial is used: the offer to sell instead, if any. */
function trialUsedByLine({ offers }: RouteContext, payment: Payment): OfferDefinition | undefined {
  if (payment.status !== 'FAILED' || payment.failureCode !== 'SUB-108') return undefined;
  const replacement = offers.get(payment.offerUid)?.onceTrialUsed;
  return replacement === undefined ? undefined : offers.get(replacement);
}
