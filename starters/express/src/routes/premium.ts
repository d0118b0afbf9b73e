import type { ExpressRoutes } from '@dcbkit/express';
import { Router } from 'express';
import { PREMIUM_PRODUCT } from '../offers.js';
import type { Views } from '../views.js';
import { requireSignIn } from './auth.js';

/** A page behind the access gate: only accounts with access to Premium get it, others go to the offers. */
export function premiumRoutes({ dcb, views }: { dcb: ExpressRoutes; views: Views }): Router {
  const router = Router();
  router.get('/premium', requireSignIn, dcb.requireAccess(PREMIUM_PRODUCT), (req, res) => {
    views.render(req, res, 'premium');
  });
  return router;
}
