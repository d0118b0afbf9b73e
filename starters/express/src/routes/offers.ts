import type { DcbKit } from '@dcbkit/core';
import { Router } from 'express';
import type { Views } from '../views.js';
import { accountKeyOf } from './auth.js';

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
}): Router {
  const router = Router();
  router.get('/', async (req, res, next) => {
    const account = accountKeyOf(req);
    let standings: Awaited<ReturnType<DcbKit['offerStandings']>> | undefined;
    try {
      // What this account may do with each offer: the kit's answer, the rule the checkout enforces.
      standings = account === undefined ? undefined : await kit.offerStandings(account);
    } catch (error) {
      next(error);
      return;
    }
    views.render(req, res, 'offers', {
      offers: kit.offers.listed,
      standings,
      // The access gate sends visitors here with ?product=… when they lack it.
      needsProduct: typeof req.query.product === 'string',
      // The embedded checkout needs the checkout host in the CSP's frame-src.
      embedded,
    });
  });
  router.get('/offers', (_req, res) => res.redirect(301, '/'));
  return router;
}
