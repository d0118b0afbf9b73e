import type { DcbKit, RouteView } from '@dcbkit/core';
import { createHonoRoutes, createHonoWebhook } from '@dcbkit/hono';
import { type Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The one offer this shop sells: the embedded sandbox's `offer_full_unlock`. */
export const OFFER_UID = 'offer_full_unlock';
const PRODUCT_UID = 'prod_full_unlock';

/** The app's Env: its sign-in middleware puts the account in `c.var.account`. */
type ShopEnv = { Variables: { account: string | undefined } };

/** A page of the shop; `html` escapes what it interpolates. */
const page = (c: Context, body: ReturnType<typeof html>, status: ContentfulStatusCode = 200) =>
  c.html(
    html`<!doctype html><html lang="en"><meta charset="utf-8"><title>Hono shop</title><body>${body}</body></html>`,
    status,
  );

function returnPage(c: Context, view: RouteView): Response | Promise<Response> {
  if (view.kind !== 'return') return page(c, html`<pre>${JSON.stringify(view, null, 2)}</pre>`);
  if (view.state === 'succeeded')
    return page(c, html`<h1>Thank you</h1><p><a href="/premium">Open the full version</a></p>`);
  if (view.state === 'pending')
    return page(c, html`<h1>Payment pending</h1><p>Reload this page in a moment.</p>`);
  return page(
    c,
    html`<h1>Payment failed</h1><p>${view.failureCode ?? ''}</p><p><a href="/">Try again</a></p>`,
  );
}

/** A small shop on Hono: an offers page, checkout and return, the webhook, and a gated page. */
export function buildShop(kit: DcbKit): Hono<ShopEnv> {
  const app = new Hono<ShopEnv>();

  // The webhook first, before anything that might read bodies: it reads the exact bytes itself.
  app.post('/webhooks/dcb', createHonoWebhook(kit.webhook));

  // The signed-in account, from a cookie `/sign-in?account=` sets: a stand-in for your session
  // (hono-sessions, your auth provider's middleware). dcbkit only needs the account key.
  app.use(async (c, next) => {
    c.set('account', getCookie(c, 'account'));
    await next();
  });

  const dcb = createHonoRoutes<ShopEnv>({
    routes: kit.routes,
    signedInAccount: (c) => c.var.account,
    offersPage: '/',
    render: (view, c) => returnPage(c, view),
    renderError: (error, c) =>
      page(
        c,
        html`<h1>Sorry</h1><p>${error.message}</p><p><a href="/">Back</a></p>`,
        (error.httpStatus ?? 400) as ContentfulStatusCode,
      ),
  });
  app.post('/billing/checkout', dcb.checkout());
  app.get('/billing/return', dcb.returnPage());

  app.get('/sign-in', (c) => {
    setCookie(c, 'account', c.req.query('account') ?? 'alice', {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
    });
    return c.redirect('/', 303);
  });

  app.get('/', (c) => {
    const account = c.var.account;
    const offer = kit.offers.get(OFFER_UID);
    if (account === undefined || offer === undefined)
      return page(c, html`<p><a href="/sign-in?account=alice">Sign in as alice</a></p>`);
    return page(
      c,
      html`<p>Signed in as ${account}</p>
<form method="post" action="/billing/checkout">
  <input type="hidden" name="offerUid" value="${offer.offerUid}">
  <input type="hidden" name="token" value="${kit.routes.formToken(account)}">
  <button>Buy ${offer.name}</button>
</form>`,
    );
  });

  app.get('/premium', dcb.requireAccess(PRODUCT_UID), (c) => page(c, html`<h1>The full version</h1>`));
  return app;
}
