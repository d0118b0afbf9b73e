import { settleCheckout } from '../apply/checkout-funnel-facts.js';
import { DcbApiError } from '../client/errors.js';
import type { CreatePaymentRequest, Presentation } from '../schemas/create-payment.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { Payment } from '../schemas/payment.js';
import { checkoutIdempotencyKey } from './checkout-nonce.js';
import { isExpectedCheckoutUrl } from './checkout-url.js';
import { throwClientFailure } from './client-failure.js';
import type { RouteContext } from './route-context.js';
import { routeError } from './route-error.js';

/**
 * Creates the hosted payment of a checkout (`POST /v1/payments`), its idempotency key made from
 * the form's nonce, so repeated submits of one form are one payment.
 */
export async function createCheckoutPayment(
  context: RouteContext,
  account: string,
  offer: OfferDefinition,
  presentation: Presentation,
  nonce: string,
): Promise<Payment> {
  const prefill = context.prefill?.(account);
  const request: CreatePaymentRequest = {
    mode: 'HOSTED',
    offerUid: offer.offerUid,
    returnUrl: context.returnUrl,
    presentation,
    metadata: { [context.accountKeyField]: account },
    ...(prefill ? { prefill } : {}),
  };
  try {
    return await context.client.payments.create(request, {
      idempotencyKey: checkoutIdempotencyKey(account, offer.offerUid, nonce),
    });
  } catch (error) {
    if (
      error instanceof DcbApiError &&
      error.code === 'CAT-102' &&
      context.logLimit(`CAT-102 ${offer.offerUid}`)
    ) {
      // The app sells an offer this environment does not have: its offers are wrong, not the subscriber.
      context.logger.error?.(
        { offerUid: offer.offerUid, code: error.code },
        `dcbkit: the billing service knows no offer ${offer.offerUid} (CAT-102); checkout answered 404. Your offers must use the offerUids of this environment's catalogue: the console's, or on @dcbkit/sandbox those its dashboard (/sandbox) lists.`,
      );
    }
    throwClientFailure(context, error, 'checkout', 'No such offer.');
  }
}

/**
 * The checkout URL of an answer, checked (checkout-url.ts) before it goes into a Location header
 * or an iframe. Anything else is refused with a 502: nearly always `checkoutBaseUrl`
 * (`DCB_CHECKOUT_BASE_URL`) naming another host than the service's, else the service misbehaving
 * or a proxy tampering. The payment the buyer cannot be sent to is cancelled at the service rather
 * than left open there, the refusal is counted for the operations view
 * (`kit.routes.checkoutHealth()`), and the log says what was received and what to set.
 */
export async function checkedCheckoutUrl(
  context: RouteContext,
  account: string,
  paymentUid: string,
  checkoutUrl: string | undefined,
): Promise<string> {
  const { checkoutBaseUrl } = context;
  if (isExpectedCheckoutUrl(checkoutUrl, paymentUid, checkoutBaseUrl)) return checkoutUrl as string;
  const canceled = await cancelUnreachablePayment(context, account, paymentUid);
  const configuredCheckoutHost = checkoutBaseUrl ? checkoutBaseUrl.href.replace(/\/+$/, '') : null;
  const refusal = context.checkoutRefusals.record({
    paymentUid,
    receivedUrl: checkoutUrl,
    configuredCheckoutHost,
    canceled,
  });
  const error = routeError(
    'service_unavailable',
    'The payment page could not be opened; please try again later.',
  );
  const expected = `${configuredCheckoutHost ?? 'https://{checkout host}'}/c/${paymentUid}`;
  const fix =
    refusal.receivedCheckoutHost !== null && configuredCheckoutHost !== null
      ? ` If ${refusal.receivedCheckoutHost} is this environment's checkout host, set DCB_CHECKOUT_BASE_URL (checkoutBaseUrl) to it: DCB_CHECKOUT_BASE_URL=${refusal.receivedCheckoutHost}.`
      : " The URL does not have the spec's shape: the service misbehaves or something between tampers with its answers.";
  const log = context.logLimit('checkout_url');
  if (log) {
    context.logger.error?.(
      {
        code: error.code,
        source: 'route',
        route: 'checkout',
        paymentUid,
        receivedUrl: refusal.receivedUrl,
        expectedUrl: expected,
        variable: 'DCB_CHECKOUT_BASE_URL',
        canceled,
      },
      `dcbkit: the billing service gave the checkout URL ${refusal.receivedUrl}, not ${expected}; refused it, ${canceled ? 'cancelled the payment' : 'could not cancel the payment'} and answered 502.${fix}`,
    );
  }
  context.reportError(error, { source: 'route', route: 'checkout' }, '', { log: false });
  throw error;
}

/** True when the service cancelled the payment; a failure is logged, never thrown over the 502. */
async function cancelUnreachablePayment(
  context: RouteContext,
  accountKey: string,
  paymentUid: string,
): Promise<boolean> {
  try {
    await context.client.payments.cancel(paymentUid);
    const payment = { paymentUid, status: 'CANCELED' } as const;
    await settleCheckout(context.store, context, { payment, accountKey }, context.now());
    return true;
  } catch (error) {
    context.logger.warn?.(
      { paymentUid, err: error },
      `dcbkit: could not cancel payment ${paymentUid}, whose checkout URL was refused; it stays open at the service until it expires.`,
    );
    return false;
  }
}
