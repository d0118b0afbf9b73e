import { accessEndsAt, type DcbKit } from '@dcbkit/core';
import type { Views } from '../views.js';
import type { ShopRequest } from '../web/shop-request.js';
import type { ShopRoute } from '../web/shop-route.js';
import { accountPage, offerOfEntitlement } from './account-page.js';
import { accountKeyOf, requireSignIn } from './auth.js';

type SubscriptionAction = 'PERIOD_END' | 'NOW' | 'resume';

/** The confirmation page of one action, for a subscription of this account only. */
async function confirmPage(
  { kit, views }: { kit: DcbKit; views: Views },
  request: ShopRequest,
  action: SubscriptionAction,
) {
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
    offer: offerOfEntitlement(kit, entitlement),
    endsAt: views.context(request).date(accessEndsAt(entitlement)),
    firstCharge: action === 'resume' && inTrial ? views.context(request).date(trialEndsAt) : undefined,
    formAction: `/account/subscriptions/${encodeURIComponent(uid)}/${verb}`,
  });
}

/**
 * The account page (access, subscriptions, purchases) and the subscription actions: cancel at
 * period end, cancel now and resume, each behind a confirmation page whose form carries the
 * kit's form token. The kit checks the subscription is this account's before acting.
 */
export function accountRoutes(shop: { kit: DcbKit; views: Views }): ShopRoute[] {
  return [
    { method: 'GET', path: '/account', guards: [requireSignIn], handle: accountPage(shop) },
    {
      method: 'GET',
      path: '/account/subscriptions/:subscriptionUid/cancel',
      guards: [requireSignIn],
      handle: (request) => confirmPage(shop, request, request.query.when === 'NOW' ? 'NOW' : 'PERIOD_END'),
    },
    {
      method: 'GET',
      path: '/account/subscriptions/:subscriptionUid/resume',
      guards: [requireSignIn],
      handle: (request) => confirmPage(shop, request, 'resume'),
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
