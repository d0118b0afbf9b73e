import type { DcbError, RouteErrorCode, RouteView } from '@dcbkit/core';
import type { Request, Response } from 'express';
import { RETURN_PATH } from '../billing.js';
import { PREMIUM_PRODUCT } from '../offers.js';
import { updateSession } from '../session.js';
import type { Views } from '../views.js';

/**
 * Turns the kit's route results into pages (createExpressRoutes' `render`): the kit decided
 * everything (payment read, ownership, access); this only shows it.
 */
export function renderKitView(views: Views) {
  return (view: RouteView, req: Request, res: Response): void => {
    switch (view.kind) {
      case 'checkout_embedded':
        views.render(req, res, 'checkout-embedded', {
          offer: view.offer,
          paymentUid: view.paymentUid,
          checkoutUrl: view.checkoutUrl,
          checkoutOrigin: new URL(view.checkoutUrl).origin,
          returnUrl: returnPageOf(view.paymentUid),
        });
        return;
      case 'return':
        // `state` is this payment's outcome from the server-side read, never the query's status.
        views.render(req, res, 'return', {
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
          reason: reasonOf(view.paymentStatus, view.failureCode),
          // The line had the trial (SUB-108): the kit names the paid offer to come back with.
          paidOffer: view.offerOnceTrialUsed,
        });
        return;
      case 'unit_spent':
        updateSession(req, { notice: { key: 'done.unitSpent', values: { left: String(view.unitsLeft) } } });
        res.redirect(303, '/account');
        return;
      case 'payment_canceled':
        updateSession(req, { notice: { key: 'done.paymentCanceled', values: {} } });
        res.redirect(303, '/account');
        return;
      case 'subscription': {
        // Post/redirect/get: the account page shows the result, and reloading it sends nothing again.
        const { action, subscription } = view;
        const date = views.context(req).date(subscription.cancelAt ?? subscription.currentPeriodEnd);
        let key = 'done.NOW';
        if (action === 'resume') key = 'done.resume';
        else if (subscription.status === 'PRE_CANCELED') key = 'done.PERIOD_END';
        updateSession(req, { notice: { key, values: { date } } });
        res.redirect(303, '/account');
        return;
      }
    }
  };
}

/** Why a payment failed, in words the shop has (return.reason.*): the service's code, else the status. */
const REASONS = new Set(['PAY-101', 'PAY-103', 'SBR-102', 'SBR-104', 'RSK-101', 'CAT-109', 'SUB-108']);

function reasonOf(status: string, failureCode: string | undefined): string {
  return failureCode !== undefined && REASONS.has(failureCode) ? failureCode : status;
}

function returnPageOf(paymentUid: string): string {
  return `${RETURN_PATH}?${new URLSearchParams({ paymentUid })}`;
}

/** Which error page each refusal of the kit's routes shows (createExpressRoutes' `renderError`). */
const ERROR_PAGES: Record<RouteErrorCode, string> = {
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
export function renderKitError(views: Views) {
  return (error: DcbError<RouteErrorCode>, req: Request, res: Response): void => {
    if (error.code === 'unauthenticated') {
      res.redirect(303, '/sign-in');
      return;
    }
    views.render(req, res, 'error', { kind: ERROR_PAGES[error.code] }, error.httpStatus ?? 400);
  };
}
