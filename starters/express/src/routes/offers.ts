import type { DcbKit } from '@dcbkit/core';
import { Router } from 'express';
import type { Views } from '../views.js';

/**
 * The offers page: name, price (with the currency's minor unit), billing period and trial of
 * each offer, shown before any checkout button, as the service requires of partners.
 */
export function offersRoutes({
  kit,
  views,
  embedded,
}: {
  kit: DcbKit;
  views: Views;
  embedded: boolean;
}): Router {
  const router = Router();
  router.get('/', (req, res) => {
    views.render(req, res, 'offers', {
      offers: kit.offers.list,
      // The access gate sends visitors here with ?product=… when they lack it.
      needsProduct: typeof req.query.product === 'string',
      // The embedded checkout needs the checkout host in the CSP's frame-src.
      embedded,
    });
  });
  router.get('/offers', (_req, res) => res.redirect(301, '/'));
  return router;
}
