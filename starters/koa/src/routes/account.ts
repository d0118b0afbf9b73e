import {
  accessEndsAt,
  availableUnits,
  type DcbKit,
  type Entitlement,
  hasAccess,
  subscriptionActions,
} from '@dcbkit/core';
import type { KoaRoutes } from '@dcbkit/koa';
import Router, { type RouterContext } from '@koa/router';

import type { Views } from '../views.js';
import { accountKeyOf, requireSignIn } from './auth.js';

/**
 * The account page (access, subscriptions, purchases) and the subscription actions: cancel at
 * period end, cancel now and resume, each behind a confirmation page whose form carries the
 * kit's form token. The kit checks the subscription is this account's before acting.
 */
export function accountRoutes({ kit, dcb, views }: { kit: DcbKit; dcb: KoaRoutes; views: Views }): Router {
  const router = new Router();
  const offerOf = (entitlement: Entitlement) =>
    kit.offers.get(entitlement.offerUid) ?? kit.offers.forProduct(entitlement.productUid)[0];

  router.get('/account', requireSignIn, async (ctx) => {
    const now = kit.now();
    const account = accountKeyOf(ctx) ?? '';
    const [entitlements, open] = await Promise.all([
      kit.store.listByAccount(account),
      kit.pendingPayments(account),
    ]);
    // Checkouts started and not finished: continue or cancel them here.
    const pending = open.map((payment) => ({ ...payment, offer: kit.offers.get(payment.offerUid) }));
    const byProduct = new Map(entitlements.map((entitlement) => [entitlement.productUid, entitlement]));
    const products = kit.offers.listed.map((offer) => ({
      offer,
      access: hasAccess(byProduct.get(offer.productUid), now),
    }));
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
        return [
          {
            offer,
            access: hasAccess(entitlement, now),
            available: availableUnits(entitlement),
            bought: entitlement.unitsBought,
          },
        ];
      });
    views.render(ctx, 'account', { products, subscriptions, purchases, pending });
  });

  /** The confirmation page of one action, for a subscription of this account only. */
  async function confirmPage(ctx: RouterContext, action: 'PERIOD_END' | 'NOW' | 'resume') {
    const uid = String(ctx.params.subscriptionUid);
    const entitlement = await kit.store.findBySubscriptionUid(uid);
    if (entitlement === undefined || entitlement.accountKey !== accountKeyOf(ctx)) {
      views.render(ctx, 'error', { kind: 'error.notFound' }, 404);
      return;
    }
    const verb = action === 'resume' ? 'resume' : 'cancel';
    views.render(ctx, 'confirm', {
      action,
      when: action === 'resume' ? undefined : action,
      offer: offerOf(entitlement),
      endsAt: views.context(ctx).date(accessEndsAt(entitlement)),
      formAction: `/account/subscriptions/${encodeURIComponent(uid)}/${verb}`,
    });
  }

  router.get('/account/subscriptions/:subscriptionUid/cancel', requireSignIn, (ctx) =>
    confirmPage(ctx, ctx.query.when === 'NOW' ? 'NOW' : 'PERIOD_END'),
  );
  router.get('/account/subscriptions/:subscriptionUid/resume', requireSignIn, (ctx) =>
    confirmPage(ctx, 'resume'),
  );
  // The kit reads `when` and `token` from the form body (never the query string) and the uid from the path.
  router.post('/account/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription());
  router.post('/account/subscriptions/:subscriptionUid/resume', dcb.resumeSubscription());
  // The kit cancels it only if it is this account's and still waiting on the subscriber.
  router.post('/account/payments/:paymentUid/cancel', dcb.cancelPayment());
  // One pass spent, atomically in the store: never below zero, however many taps race.
  router.post('/account/passes/:productUid/use', dcb.spendUnit());

  return router;
}
