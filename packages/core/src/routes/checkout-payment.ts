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
 * or an iframe: anything else is the service misbehaving or a proxy tampering, reported and
 * answered 502.
 */
export function checkedCheckoutUrl(
  context: RouteContext,
  paymentUid: string,
  checkoutUrl: string | undefined,
): string {
  const { checkoutBaseUrl } = context;
  if (isExpectedCheckoutUrl(checkoutUrl, paymentUid, checkoutBaseUrl)) return checkoutUrl as string;
  const error = routeError(
    'service_unavailable',
    'The payment page could not be opened; please try again later.',
  );
  const expected = checkoutBaseUrl
    ? `${checkoutBaseUrl.href.replace(/\/+$/, '')}/c/${paymentUid}`
    : `https://{checkout host}/c/${paymentUid}`;
  context.reportError(
    error,
    { source: 'route', route: 'checkout' },
    `dcbkit: the billing service gave a checkout URL that is not ${expected}; refused it and answered 502.`,
    { log: context.logLimit('checkout_url') },
  );
  throw error;
}
