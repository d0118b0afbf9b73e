import { RETURN_PATH } from '../billing.js';
import type { ShopRoute } from '../web/shop-route.js';
import { requireSignIn } from './auth.js';

/**
 * Checkout and return, both the kit's: checkout starts a hosted payment for the form's offer (the
 * account id goes into the payment's metadata) and redirects to the checkout host, or renders the
 * embedded checkout; the return page reads the payment from the service and grants access only
 * when that read says SUCCEEDED.
 */
export function checkoutRoutes(): ShopRoute[] {
  return [
    { method: 'POST', path: '/checkout', handle: 'checkout' },
    { method: 'GET', path: RETURN_PATH, guards: [requireSignIn], handle: 'returnPage' },
  ];
}
