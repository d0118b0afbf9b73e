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
import type { Handler } from '../web/shop-route.js';
import { accountKeyOf } from './auth.js';

/** The offer an entitlement was bought through, else its product's first (an offer since withdrawn). */
export function offerOfEntitlement(kit: DcbKit, entitlement: Entitlement) {
  return kit.offers.get(entitlement.offerUid) ?? kit.offers.forProduct(entitlement.productUid)[0];
}

/** When the passes used of an offer that sells time stop giving access (null for anything else). */
function unitAccessUntil(entitlement: Entitlement | undefined): string | null {
  return entitlement?.type === 'CONSUMABLE' ? entitlement.unitAccessEndsAt : null;
}

/** Each listed offer, and whether the account has access to its product. */
function productsOf(kit: DcbKit, entitlements: Entitlement[], now: Date) {
  const byProduct = new Map(entitlements.map((entitlement) => [entitlement.productUid, entitlement]));
  return kit.offers.listed.map((offer) => {
    const entitlement = byProduct.get(offer.productUid);
    const access = hasAccess(entitlement, now);
    return { offer, access, until: access ? unitAccessUntil(entitlement) : null };
  });
}

/** The account's subscriptions, each with when it ends and what the subscriber may do with it. */
function subscriptionsOf(kit: DcbKit, entitlements: Entitlement[], now: Date) {
  return entitlements
    .filter((entitlement) => entitlement.type === 'SUBSCRIPTION' && entitlement.subscriptionUid)
    .map((entitlement) => {
      const actions = subscriptionActions(entitlement);
      return {
        uid: entitlement.subscriptionUid,
        offer: offerOfEntitlement(kit, entitlement),
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
}

/** The account's one-time purchases and passes (an offer no longer known left out). */
function purchasesOf(kit: DcbKit, entitlements: Entitlement[], now: Date) {
  return entitlements
    .filter((entitlement) => entitlement.type !== 'SUBSCRIPTION')
    .flatMap((entitlement) => {
      const offer = offerOfEntitlement(kit, entitlement);
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
}

/** The account page: access, subscriptions, purchases, checkouts open or failed, a line that pays twice. */
export function accountPage({ kit, views }: { kit: DcbKit; views: Views }): Handler {
  return async (request) => {
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
    return views.render(request, 'account', {
      products: productsOf(kit, entitlements, now),
      subscriptions: subscriptionsOf(kit, entitlements, now),
      purchases: purchasesOf(kit, entitlements, now),
      // Checkouts started and not finished: continue or cancel them here.
      pending: open.map((payment) => ({ ...payment, offer: kit.offers.get(payment.offerUid) })),
      // Checkouts that did not go through, and why (the service's code, else the status).
      ended: endedUnpaid.map((payment) => ({
        ...payment,
        offer: kit.offers.get(payment.offerUid),
        reason: paymentReason(payment.ended.status, payment.ended.failureCode),
      })),
      linePaysTwice: paysTwice.map((twice) => ({
        ...twice,
        offer: kit.offers.forProduct(twice.productUid)[0],
      })),
    });
  };
}
