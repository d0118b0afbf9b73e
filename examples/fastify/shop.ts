import type { DcbKit, RouteView } from '@dcbkit/core';
import { createFastifyRoutes, fastifyDcbkit } from '@dcbkit/fastify';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';

/** The one offer this shop sells: the embedded sandbox's `offer_full_unlock`. */
export const OFFER_UID = 'offer_full_unlock';
const PRODUCT_UID = 'prod_full_unlock';

/**
 * The signed-in account, from a cookie `/sign-in?account=` sets. A stand-in for your session
 * (@fastify/session, @fastify/secure-session): dcbkit only needs the account key.
 */
function signedInAccount(request: FastifyRequest): string | undefined {
  const cookie = /(?:^|;\s*)account=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
  return cookie === undefined ? undefined : decodeURIComponent(cookie);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (body: string) =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><title>Fastify shop</title><body>${body}</body></html>`;

function returnPage(view: RouteView): string {
  if (view.kind !== 'return') return page(`<pre>${escapeHtml(JSON.stringify(view, null, 2))}</pre>`);
  if (view.state === 'succeeded')
    return page('<h1>Thank you</h1><p><a href="/premium">Open the full version</a></p>');
  if (view.state === 'pending') return page('<h1>Payment pending</h1><p>Reload this page in a moment.</p>');
  return page(
    `<h1>Payment failed</h1><p>${escapeHtml(view.failureCode ?? '')}</p><p><a href="/">Try again</a></p>`,
  );
}

/** A small shop on Fastify: an offers page, checkout and return, the webhook, and a gated page. */
export async function buildShop(kit: DcbKit): Promise<FastifyInstance> {
  const app = Fastify();
  const dcb = createFastifyRoutes({
    routes: kit.routes,
    signedInAccount,
    offersPage: '/',
    render: (view, _request, reply) => reply.type('text/html; charset=utf-8').send(returnPage(view)),
    renderError: (error, _request, reply) =>
      reply
        .code(error.httpStatus ?? 400)
        .type('text/html; charset=utf-8')
        .send(page(`<h1>Sorry</h1><p>${escapeHtml(error.message)}</p><p><a href="/">Back</a></p>`)),
  });

  // The webhook and the billing routes in the plugin's scope: the webhook gets the exact bytes
  // the service signed, and dcbkit reads the checkout form itself (no @fastify/formbody).
  await app.register(fastifyDcbkit, {
    webhook: kit.webhook,
    mount(billing) {
      billing.post('/billing/checkout', dcb.checkout());
      billing.get('/billing/return', dcb.returnPage());
    },
  });

  app.get<{ Querystring: { account?: string } }>('/sign-in', async (request, reply) => {
    const account = request.query.account ?? 'alice';
    return reply
      .header('set-cookie', `account=${encodeURIComponent(account)}; Path=/; HttpOnly; SameSite=Lax`)
      .redirect('/', 303);
  });

  app.get('/', async (request, reply) => {
    const account = signedInAccount(request);
    const offer = kit.offers.get(OFFER_UID);
    if (account === undefined || offer === undefined)
      return reply
        .type('text/html; charset=utf-8')
        .send(page('<p><a href="/sign-in?account=alice">Sign in as alice</a></p>'));
    return reply.type('text/html; charset=utf-8').send(
      page(`<p>Signed in as ${escapeHtml(account)}</p>
<form method="post" action="/billing/checkout">
  <input type="hidden" name="offerUid" value="${escapeHtml(offer.offerUid)}">
  <input type="hidden" name="token" value="${escapeHtml(kit.routes.formToken(account))}">
  <button>Buy ${escapeHtml(offer.name)}</button>
</form>`),
    );
  });

  app.get('/premium', { preHandler: dcb.requireAccess(PRODUCT_UID) }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(page('<h1>The full version</h1>')),
  );
  return app;
}
