import type { DcbKit } from '@dcbkit/core';
import type { Views } from '../views.js';
import { movedPermanently } from '../web/shop-answer.js';
import type { ShopRoute } from '../web/shop-route.js';
import { accountKeyOf } from './auth.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The offers page: name, price (with the currency's minor unit), billing period and trial of
 * each offer, shown before any checkout button, as the service requires of partners; for a
 * signed-in account, what it may do with each (kit.offerStandings) instead of a button it would be
 * refused: owned, subscribed, a checkout to continue, the paid price once the trial is used.
 */
export function offersRoutes({
  kit,
  views,
  embedded,
}: {
  kit: DcbKit;
  views: Views;
  embedded: boolean;
}): ShopRoute[] {
  return [
    {
      method: 'GET',
      path: '/',
      handle: async (request) => {
        const account = accountKeyOf(request);
        // What this account may do with each offer: the kit's answer, the same rule the checkout enforces.
        const standings = account === undefined ? undefined : await kit.offerStandings(account);
        return views.render(request, 'offers', {
          offers: kit.offers.listed,
          // A trial's first charge, when it would fall for a checkout started now: the page says the
          // date, and the checkout form sends it for the record kept with the payment.
          firstChargeOf: (trialDays: number) =>
            new Date(kit.now().getTime() + trialDays * DAY_MS).toISOString(),
          standings,
          // The access gate sends visitors here with ?product=… when they lack it.
          needsProduct: typeof request.query.product === 'string',
          // The embedded checkout needs the checkout host in the CSP's frame-src.
          embedded,
        });
      },
    },
    { method: 'GET', path: '/offers', handle: () => movedPermanently('/') },
  ];
}
