import {
  accessEndsAt,
  accessReason,
  availableUnits,
  type DcbKit,
  type Entitlement,
  hasAccess,
  subscriptionActions,
} from '@dcbkit/core';
import { accountPaysTwice } from '../line-pays-twice.js';
import { paymentReason } from '../payment-reason.js';
import type { Views } from '../views.js';
import type { ShopRequest } from '../web/shop-request.js';
import type { ShopRoute } from '../web/shop-route.js';
import { accountKeyOf, requireSignIn } from './auth.js';

/** When the passes used of an offer that sells time stop giving access (null for anything else). */
function unitAccessUntil(entitlement: Entitlement | undefined): string | null {
  return entitlement?.type === 'CONSUMABLE' ? entitlement.unitAccessEndsAt : null;
}

/**
 * The account page (access, subscriptions, purchases) and the subscription actions: cancel at
 * period end, cancel now and resume, each behind a confirmation page whose form carries the
 * kit's form token. The kit checks the subscription is this account's before acting.
 */
export function accountRoutes({ kit, views }: { kit: DcbKit; views: Views }): ShopRoute[] {
  const offerOf = (entitlement: Entitlement) =>
    kit.offers.get(entitlement.offerUid) ?? kit.offers.forProduct(entitlement.productUid)[0];

  async function accountPage(request: ShopRequest) {
    const now = kit.now();
    const account = accountKeyOf(request) ?? '';
    const [entitlements, open, endedUnpaid, paysTwice] = await Promise.all([
      kit.store.listByAccount(account),
      kit.pendingPayments(account),
      kit.endedPayments(account),
      // The subscriber's line charged twice for one product (another account on the same phone):
      // told here, through the path that tells the operator, with a way to cancel their own.
      accountPaysTwice(kit, account),
    ]);
    // Checkouts started and not finished: continue or cancel them here.
    const pending = open.map((payment) => ({ ...payment, offer: kit.offers.get(payment.offerUid) }));
    // Checkouts that did not go through, and why (the service's code, else the status).
    const ended = endedUnpaid.map((payment) => ({
      ...payment,
      offer: kit.offers.get(payment.offerUid),
      reason: paymentReason(payment.ended.status, payment.ended.failureCode),
    }));
    const byProduct = new Map(entitlements.map((entitlement) => [entitlement.productUid, entitlement]));
    const products = kit.offers.listed.map((offer) => {
      const entitlement = byProduct.get(offer.productUid);
      const access = hasAccess(entitlement, now);
      return { offer, access, until: access ? unitAccessUntil(entitlement) : null };
    });
    const subscriptions = entitlements
      .filter((entitlement) => entitlement.type === 'SUBSCRIPTION' && entitlement.subscriptionUid)
      .map((entitlement) => {
        const actions = subscriptionActions(entitlement);
        return {
          uid: entitlement.subscriptionUid,
          offer: offerOf(entitlement),
          entitlement,
          access: hasAccess(entitlement, now),
          endsAt: accessEndsAt(entitlement),
          // A free trial (resumed or not): nothing is charged before this; null when no charge comes.
          firstChargeAt: accessReason(entitlement, now).firstChargeAt,
          canCancelAtPeriodEnd: actions.cancelAtPeriodEnd,
          canCancelNow: actions.cancelNow,
          canResume: actions.resume,
        };
      });
    const purchases = entitlements
      .filter((entitlement) => entitlement.type !== 'SUBSCRIPTION')
      .flatMap((entitlement) => {
        const offer = offerOf(entitlement);
        if (!offer) return [];
        const access = hasAccess(entitlement, now);
        return [
          {
            offer,
            access,
            available: availableUnits(entitlement),
            bought: entitlement.unitsBought,
            // A pass in use (an offer that sells time per pass): until when it opens the product.
            until: access ? unitAccessUntil(entitlement) : null,
          },
        ];
      });
    const linePaysTwice = paysTwice.map((twice) => ({
      ...twice,
      offer: kit.offers.forProduct(twice.productUid)[0],
    }));
    return views.render(request, 'account', {
      products,
      subscriptions,
      purchases,
      pending,
      ended,
      linePaysTwice,
    });
  }

  /** The confirmation page of one action, for a subscription of this account only. */
  async function confirmPage(request: ShopRequest, action: 'PERIOD_END' | 'NOW' | 'resume') {
    const uid = String(request.params.subscriptionUid);
    const entitlement = await kit.store.findBySubscriptionUid(uid);
    if (entitlement === undefined || entitlement.accountKey !== accountKeyOf(request)) {
      return views.render(request, 'error', { kind: 'error.notFound' }, 404);
    }
    const verb = action === 'resume' ? 'resume' : 'cancel';
    // Resumed during its free trial, a subscription goes back to the trial: what comes next is the
    // first charge at the trial's end, not a renewal.
    const { trialEndsAt } = entitlement;
    const inTrial = trialEndsAt !== null && Date.parse(trialEndsAt) > kit.now().getTime();
    return views.render(request, 'confirm', {
      action,
      when: action === 'resume' ? undefined : action,
      offer: offerOf(entitlement),
      endsAt: views.context(request).date(accessEndsAt(entitlement)),
      firstCharge: action === 'resume' && inTrial ? views.context(request).date(trialEndsAt) : undefined,
      formAction: `/account/subscriptions/${encodeURIComponent(uid)}/${verb}`,
    });
  }

  return [
    { method: 'GET', path: '/account', guards: [requireSignIn], handle: accountPage },
    {
      method: 'GET',
      path: '/account/subscriptions/:subscriptionUid/cancel',
      guards: [requireSignIn],
      handle: (request) => confirmPage(request, request.query.when === 'NOW' ? 'NOW' : 'PERIOD_END'),
    },
    {
      method: 'GET',
      path: '/account/subscriptions/:subscriptionUid/resume',
      guards: [requireSignIn],
      handle: (request) => confirmPage(request, 'resume'),
    },
    // The kit reads `when` and `token` from the form body (never the query string) and the uid from the path.
    { method: 'POST', path: '/account/subscriptions/:subscriptionUid/cancel', handle: 'cancelSubscription' },
    { method: 'POST', path: '/account/subscriptions/:subscriptionUid/resume', handle: 'resumeSubscription' },
    // The kit cancels it only if it is this account's and still waiting on the subscriber.
    { method: 'POST', path: '/account/payments/:paymentUid/cancel', handle: 'cancelPayment' },
    // One pass spent, atomically in the store: never below zero, however many taps race.
    { method: 'POST', path: '/account/passes/:productUid/use', handle: 'spendUnit' },
  ];
}
