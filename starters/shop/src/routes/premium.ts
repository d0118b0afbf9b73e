import { PREMIUM_PRODUCT } from '../offer-definitions.js';
import type { Views } from '../views.js';
import type { ShopRoute } from '../web/shop-route.js';
import { requireSignIn } from './auth.js';

/** A page behind the access gate: only accounts with access to Premium get it, others go to the offers. */
export function premiumRoutes({ views }: { views: Views }): ShopRoute[] {
  return [
    {
      method: 'GET',
      path: '/premium',
      guards: [requireSignIn],
      requiresAccessTo: PREMIUM_PRODUCT,
      handle: (request) => views.render(request, 'premium'),
    },
  ];
}
