import type { DcbError, DcbErrorCode, RouteView } from '@dcbkit/core';
import { RETURN_PATH } from '../billing.js';
import { PREMIUM_PRODUCT } from '../offer-definitions.js';
import { paymentReason } from '../payment-reason.js';
import { signInIdOf } from '../session.js';
import type { Views } from '../views.js';
import { type ShopAnswer, seeOther } from '../web/shop-answer.js';
import type { ShopRequest } from '../web/shop-request.js';
import { accountKeyOf } from './auth.js';

/**
 * What the framework's dcbkit adapter (createExpressRoutes, createKoaRoutes…) asks of the shop,
 * said once for every framework: who is signed in, the sign-in's id that form tokens are bound
 * to, the kit's results and refusals as pages, and where the access gate sends someone without
 * access. src/framework/ passes each to the adapter with the framework's request turned into a
 * ShopRequest.
 */
export function kitRouteHooks(views: Views) {
  return {
    signedInAccount: accountKeyOf,
    sessionId: signInIdOf,
    render: renderKitView(views),
    renderError: renderKitError(views),
    offersPage: '/',
  };
}

/**
 * Turns the kit's route results into pages: the kit decided everything (payment read, ownership,
 * access); this only shows it.
 */
function renderKitView(views: Views) {
  return (view: RouteView, request: ShopRequest): ShopAnswer => {
    switch (view.kind) {
      case 'checkout_embedded':
        return views.render(request, 'checkout-embedded', {
          offer: view.offer,
          paymentUid: view.paymentUid,
          checkoutUrl: view.checkoutUrl,
          checkoutOrigin: new URL(view.checkoutUrl).origin,
          returnUrl: returnPageOf(view.paymentUid),
        });
      case 'return':
        // `state` is this payment's outcome from the server-side read, never the query's status.
        return views.render(request, 'return', {
          state: view.state,
          offer: view.offer,
          hasAccess: view.hasAccess,
          // A trial start charges nothing: say so rather than "payment confirmed".
          trial: view.entitlement?.status === 'TRIALING',
          premiumProduct: PREMIUM_PRODUCT,
          checkAgainUrl: returnPageOf(view.paymentUid),
          paymentUid: view.paymentUid,
          // Came back without finishing: offer to continue or cancel rather than wait for the expiry.
          continueUrl: view.continueUrl,
          reason: paymentReason(view.paymentStatus, view.failureCode),
          // The line had the trial (SUB-108): the kit names the paid offer to come back with.
          paidOffer: view.offerOnceTrialUsed,
        });
      case 'unit_spent': {
        // A pass that sells time says until when it opens the product; credits only count down.
        const left = String(view.unitsLeft);
        const until = view.accessEndsAt && views.context(request).date(view.accessEndsAt);
        request.session.update({
          notice: until
            ? { key: 'done.unitSpentUntil', values: { left, until } }
            : { key: 'done.unitSpent', values: { left } },
        });
        return seeOther('/account');
      }
      case 'payment_canceled':
        request.session.update({ notice: { key: 'done.paymentCanceled', values: {} } });
        return seeOther('/account');
      case 'subscription': {
        // Post/redirect/get: the account page shows the result, and reloading it sends nothing again.
        const { action, subscription } = view;
        const date = views.context(request).date(subscription.cancelAt ?? subscription.currentPeriodEnd);
        let key = 'done.NOW';
        if (action === 'resume') key = 'done.resume';
        else if (subscription.status === 'PRE_CANCELED') key = 'done.PERIOD_END';
        request.session.update({ notice: { key, values: { date } } });
        return seeOther('/account');
      }
    }
  };
}

function returnPageOf(paymentUid: string): string {
  return `${RETURN_PATH}?${new URLSearchParams({ paymentUid })}`;
}

/** Which error page each refusal of the kit's routes shows. */
const ERROR_PAGES: Record<DcbErrorCode<'route'>, string> = {
  unauthenticated: 'error.expired',
  cross_site_request: 'error.expired',
  method_not_allowed: 'error.expired',
  invalid_request: 'error.expired',
  not_found: 'error.notFound',
  offer_unavailable: 'error.refused',
  already_owned: 'error.owned',
  already_subscribed: 'error.subscribed',
  payment_pending: 'error.pending',
  trial_used: 'error.refused',
  conflict: 'error.refused',
  rate_limited: 'error.unavailable',
  service_unavailable: 'error.unavailable',
};

/** The kit's refusals as pages in the subscriber's language, with the status the kit chose. */
function renderKitError(views: Views) {
  return (error: DcbError<DcbErrorCode<'route'>>, request: ShopRequest): ShopAnswer => {
    if (error.code === 'unauthenticated') return seeOther('/sign-in');
    return views.render(request, 'error', { kind: ERROR_PAGES[error.code] }, error.httpStatus ?? 400);
  };
}
