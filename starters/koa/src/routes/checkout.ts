import type { KoaRoutes } from '@dcbkit/koa';
import Router from '@koa/router';
import { RETURN_PATH } from '../billing.js';
import { requireSignIn } from './auth.js';

/**
 * Checkout and return, both the kit's: checkout starts a hosted payment for the form's offer (the
 * account id goes into the payment's metadata) and redirects to the checkout host, or renders the
 * embedded checkout; the return page reads the payment from the service and grants access only
 * when that read says SUCCEEDED.
 */
export function checkoutRoutes({ dcb }: { dcb: KoaRoutes }): Router {
  const router = new Router();
  router.post('/checkout', dcb.checkout());
  router.get(RETURN_PATH, requireSignIn, dcb.returnPage());
  return router;
}
