import { offerStanding } from '../access/offer-standing.js';
import { recordCheckoutStarted } from '../apply/checkout-funnel-facts.js';
import { rememberPendingPayment } from '../apply/pending-payments.js';
import type { Presentation } from '../schemas/create-payment.js';
import type { OfferDefinition } from '../schemas/offer.js';
import { isCheckoutNonce } from './checkout-nonce.js';
import { checkedCheckoutUrl, createCheckoutPayment } from './checkout-payment.js';
import type { RouteInput } from './partner-route-types.js';
import type { RouteContext } from './route-context.js';
import { routeError } from './route-error.js';
import { presentationOf, requiredText, shownOfferOf } from './route-field-values.js';
import { guardStateChange } from './route-guard.js';
import type { RouteResult } from './route-result.js';

/**
 * The checkout route: the offer's standing for this account decides, under the lock of the
 * account and product, whether to refuse, continue an open checkout or start a payment.
 */
export async function checkout(context: RouteContext, input: RouteInput): Promise<RouteResult> {
  const { fields } = input;
  const { store, offers, now } = context;
  const guarded = guardStateChange(context, input);
  const { account } = guarded;
  const nonce = guarded.nonce ?? fields.nonce;
  const offer = offers.get(requiredText(fields, 'offerUid'));
  if (offer === undefined) throw routeError('not_found', 'No such offer.');
  if (!isCheckoutNonce(nonce)) {
    throw routeError('invalid_request', 'The checkout form is missing its nonce; reload the page.');
  }
  const presentation = presentationOf(fields.presentation);
  // What the page showed before consent (name, price, period, language), kept with the payment.
  const shown = shownOfferOf(fields, now());
  return context.checkoutLock(account, offer.productUid, async () => {
    // Decided on the server for every adapter, before any request to the service: the service
    // refuses a second charge only per phone line, and an account may pay from several.
    const standing = offerStanding({
      offer,
      entitlement: await store.get(account, offer.productUid),
      openCheckouts: (await store.listPendingPaymentsOfAccount?.(account)) ?? [],
      offerOf: offers.get,
      now: now(),
    });
    switch (standing.kind) {
      case 'owned':
        throw routeError('already_owned', 'You already own this item.');
      case 'subscribed':
        throw routeError(
          'already_subscribed',
          'You already have this subscription; manage it from your account.',
        );
      case 'unavailable':
        throw routeError('trial_used', 'The free trial of this product was already used.');
      case 'pending': {
        const { checkoutUrl, paymentUid, offerUid } = standing.checkout;
        if (checkoutUrl === undefined) {
          throw routeError('payment_pending', 'A payment for this is being confirmed; check your account.');
        }
        const url = await checkedCheckoutUrl(context, account, paymentUid, checkoutUrl);
        return checkoutResult(presentation, paymentUid, url, offers.get(offerUid) ?? offer);
      }
      default: {
        const payment = await createCheckoutPayment(context, account, standing.offer, presentation, nonce);
        const url = await checkedCheckoutUrl(context, account, payment.paymentUid, payment.checkoutUrl);
        const recordedAt = now();
        if (await rememberPendingPayment(store, payment, account, recordedAt, shown)) {
          await startFunnelCheckout(context, { ...payment, recordedAt: recordedAt.toISOString() });
        }
        return checkoutResult(presentation, payment.paymentUid, url, standing.offer);
      }
    }
  });
}

/**
 * The payment enters the checkout funnel, dated as it was recorded. A write that fails is logged,
 * not thrown: the subscriber is already on the way to pay, and the checkout's ending records its
 * start again (it counts once).
 */
async function startFunnelCheckout(
  context: RouteContext,
  checkout: Parameters<typeof recordCheckoutStarted>[1],
): Promise<void> {
  try {
    await recordCheckoutStarted(context, checkout);
  } catch (error) {
    context.logger.warn?.(
      { paymentUid: checkout.paymentUid, err: error },
      'dcbkit: the checkout funnel could not record a started checkout; its ending will record it.',
    );
  }
}

/** Where the browser goes to pay: 303 to the checkout, or the view that embeds it. */
function checkoutResult(
  presentation: Presentation,
  paymentUid: string,
  checkoutUrl: string,
  offer: OfferDefinition,
): RouteResult {
  if (presentation === 'embedded') {
    return { type: 'view', status: 200, view: { kind: 'checkout_embedded', paymentUid, checkoutUrl, offer } };
  }
  return { type: 'redirect', status: 303, location: checkoutUrl };
}
