import type { KoaRoutes } from '@dcbkit/koa';
import Router from '@koa/router';
import { PREMIUM_PRODUCT } from '../offers.js';
import type { Views } from '../views.js';
import { requireSignIn } from './auth.js';

/** A page behind the access gate: only accounts with access to Premium get it, others go to the offers. */
export function premiumRoutes({ dcb, views }: { dcb: KoaRoutes; views: Views }): Router {
  const router = new Router();
  router.get('/premium', requireSignIn, dcb.requireAccess(PREMIUM_PRODUCT), (ctx) => {
    views.render(ctx, 'premium');
  });
  return router;
}
