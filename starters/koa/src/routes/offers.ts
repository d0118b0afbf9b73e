import type { DcbKit } from '@dcbkit/core';
import Router from '@koa/router';
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
  const router = new Router();
  router.get('/', (ctx) => {
    views.render(ctx, 'offers', {
      offers: kit.offers.list,
      // The access gate sends visitors here with ?product=… when they lack it.
      needsProduct: typeof ctx.query.product === 'string',
      // The embedded checkout needs the checkout host in the CSP's frame-src.
      embedded,
    });
  });
  router.get('/offers', (ctx) => {
    ctx.status = 301;
    ctx.redirect('/');
  });
  return router;
}
