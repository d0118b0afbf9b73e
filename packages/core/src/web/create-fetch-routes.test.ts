import { describe, expect, it } from 'vitest';
import { memoryLedger } from '../ledger/memory-ledger.js';
import { createPartnerRoutes } from '../routes/partner-routes.js';
import { fakeClient, waitingPayment } from '../routes/test-support/fake-client.js';
import { memoryStore } from '../store/memory-store.js';
import { offers, paymentEvent, SECRET, signedRequest } from '../test-support/fixtures.js';
import { createWebhookHandler } from '../webhooks/create-webhook-handler.js';
import { createFetchRoutes, type FetchRoutesOptions } from './create-fetch-routes.js';

const SHOP = 'https://shop.example';
const ownPage = { origin: SHOP, 'sec-fetch-site': 'same-origin' };

function setup(options: Partial<FetchRoutesOptions> = {}) {
  const calls: string[] = [];
  const store = memoryStore();
  const routes = createPartnerRoutes({
    client: fakeClient(
      waitingPayment((uid) => `https://checkout.example/c/${uid}`),
      calls,
    ),
    store,
    offers,
    grantSucceededPayment: async () => ({ outcome: 'not_succeeded', entitlement: undefined }),
    returnUrl: `${SHOP}/return`,
    logger: {},
  });
  const dcb = createFetchRoutes({
    routes,
    signedInAccount: async (request) => request.headers.get('x-account') ?? undefined,
    sessionId: (request) => request.headers.get('x-session') ?? undefined,
    ...options,
  });
  return { dcb, routes, store, calls };
}

/** A request of the signed-in `account` (a header stands for the session's cookie). */
function request(
  path: string,
  init: RequestInit & { account?: string; form?: Record<string, string>; json?: unknown } = {},
) {
  const { account = 'alice', form, json, headers, ...rest } = init;
  const body = form ? new URLSearchParams(form) : json === undefined ? rest.body : JSON.stringify(json);
  const type = form
    ? 'application/x-www-form-urlencoded'
    : json === undefined
      ? undefined
      : 'application/json';
  return new Request(`${SHOP}${path}`, {
    ...rest,
    body,
    headers: { 'x-account': account, ...(type ? { 'content-type': type } : {}), ...headers },
  });
}

const json = async (response: Response) => ({ status: response.status, body: await response.json() });

describe('createFetchRoutes: the state-changing routes', () => {
  it('answer any method but POST 405 with Allow: POST, and change nothing', async () => {
    const { dcb, calls } = setup();
    const handlers = [
      dcb.checkout(),
      dcb.cancelPayment(),
      dcb.spendUnit(),
      dcb.cancelSubscription(),
      dcb.resumeSubscription(),
    ];
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE']) {
      for (const handle of handlers) {
        // What a link carries: the fields in the query, the session, no token, from another site.
        const link = request('/act?offerUid=off_unlock&when=NOW&paymentUid=pay_1&productUid=prod_unlock', {
          method,
          headers: { 'sec-fetch-site': 'cross-site' },
        });
        const answer = await handle(link, { subscriptionUid: 'sub_1' });
        expect(answer.status, method).toBe(405);
        expect(answer.headers.get('allow')).toBe('POST');
        if (method !== 'HEAD')
          expect(await answer.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
      }
    }
    expect(calls).toEqual([]);
  });

  it("start a checkout for a form post with this account's token, and refuse one without it or from another site", async () => {
    const { dcb, routes } = setup();
    const token = routes.formToken('alice');
    const posted = await dcb.checkout()(
      request('/checkout', { method: 'POST', form: { offerUid: 'off_unlock', token }, headers: ownPage }),
    );
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('https://checkout.example/c/pay_1');

    const tokenless = await dcb.checkout()(
      request('/checkout', { method: 'POST', form: { offerUid: 'off_unlock' }, headers: ownPage }),
    );
    expect(await json(tokenless)).toMatchObject({
      status: 403,
      body: { error: { code: 'cross_site_request' } },
    });
    const elsewhere = await dcb.checkout()(
      request('/checkout', {
        method: 'POST',
        form: { offerUid: 'off_unlock', token },
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      }),
    );
    expect(await json(elsewhere)).toMatchObject({
      status: 403,
      body: { error: { code: 'cross_site_request' } },
    });
    const anonymous = await dcb.checkout()(request('/checkout', { method: 'POST', account: '' }));
    expect(anonymous.status).toBe(401);
  });

  it('bind form tokens to the session the app names', async () => {
    const { dcb, routes } = setup();
    const token = routes.formToken('alice', 'session_a');
    const post = (session: string) =>
      dcb.checkout()(
        request('/checkout', {
          method: 'POST',
          form: { offerUid: 'off_unlock', token },
          headers: { ...ownPage, 'x-session': session },
        }),
      );
    expect((await post('session_b')).status).toBe(403);
    expect((await post('session_a')).status).toBe(303);
  });

  it('take fields from the body and the params, never the query', async () => {
    const { dcb, routes } = setup();
    const cancel = (path: string, body: unknown) =>
      dcb.cancelSubscription()(request(path, { method: 'POST', json: body }), {
        subscriptionUid: 'sub_unknown',
      });
    // `when` in the query only: the body lacks it (400); in the body: past it, to the lookup (404).
    expect(await json(await cancel('/subscriptions/sub_unknown/cancel?when=NOW', {}))).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', message: expect.stringContaining('when') } },
    });
    expect((await cancel('/subscriptions/sub_unknown/cancel', { when: 'NOW' })).status).toBe(404);
    const token = encodeURIComponent(routes.formToken('alice'));
    const repeated = await dcb.cancelSubscription()(
      request('/subscriptions/sub_unknown/cancel', {
        method: 'POST',
        body: `when=LATER&when=NOW&token=${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...ownPage },
      }),
      { subscriptionUid: 'sub_unknown' },
    );
    // The first of a repeated field: LATER (400); the last would have gone on to the lookup (404).
    expect(await json(repeated)).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
  });

  it('refuse a body that is not a JSON object, or too large to be a form, as invalid_request', async () => {
    const { dcb } = setup();
    const notObject = await dcb.checkout()(request('/checkout', { method: 'POST', json: [1, 2] }));
    expect(await json(notObject)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    });
    const huge = await dcb.checkout()(
      request('/checkout', { method: 'POST', json: { note: 'x'.repeat(20_000) } }),
    );
    expect(await json(huge)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', message: 'The request body could not be read.' } },
    });
  });
});

describe('createFetchRoutes: the return page', () => {
  it('reads the payment from the query, for its own account only', async () => {
    const { dcb, calls } = setup();
    const own = await dcb.returnPage()(request('/return?paymentUid=pay_7&status=SUCCEEDED'));
    expect(await json(own)).toMatchObject({
      status: 200,
      body: { kind: 'return', paymentUid: 'pay_7', state: 'pending', paymentStatus: 'REQUIRES_ACTION' },
    });
    expect(calls).toEqual(['retrieve pay_7']);
    expect((await dcb.returnPage()(request('/return?paymentUid=pay_7', { account: 'bob' }))).status).toBe(
      404,
    );
  });
});

describe('createFetchRoutes: render hooks', () => {
  it("render a view with the app's page", async () => {
    const { dcb } = setup({
      render: (view, request) =>
        new Response(`<h1>${view.kind} for ${request.headers.get('x-account')}</h1>`, {
          headers: { 'content-type': 'text/html' },
        }),
    });
    const page = await dcb.returnPage()(request('/return?paymentUid=pay_7'));
    expect(page.headers.get('content-type')).toBe('text/html');
    expect(await page.text()).toBe('<h1>return for alice</h1>');
  });

  it("render a refusal with the app's page, keeping Allow (added even to an immutable Response) and the app's own headers", async () => {
    const { dcb } = setup({
      renderError: (error) =>
        error.code === 'method_not_allowed'
          ? Response.redirect(`${SHOP}/oops?code=${error.code}`, 303)
          : new Response(error.message, { status: error.httpStatus, headers: { allow: 'POST, PUT' } }),
    });
    const redirected = await dcb.cancelPayment()(request('/payments/pay_1/cancel'), { paymentUid: 'pay_1' });
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get('location')).toBe(`${SHOP}/oops?code=method_not_allowed`);
    expect(redirected.headers.get('allow')).toBe('POST');
    const own = await dcb.cancelPayment()(request('/payments/pay_1/cancel', { method: 'POST', account: '' }));
    expect(own.status).toBe(401);
    expect(own.headers.get('allow')).toBe('POST, PUT');
    expect(await own.text()).toBe('Sign in first.');
  });
});

describe('createFetchRoutes: the access gate', () => {
  it('lets an account with access through, answers 403 or redirects the others', async () => {
    const { dcb, routes, store } = setup({ offersPage: '/offers' });
    const handler = createWebhookHandler({
      secrets: SECRET,
      store,
      ledger: memoryLedger(),
      offers,
      logger: {},
    });
    await handler(signedRequest(paymentEvent('payment.succeeded', 0, 'off_unlock'), new Date()));
    const unlock = (account: string) => request('/unlock', { account });

    expect(await dcb.requireAccess('prod_unlock')(unlock('user_1'))).toBeUndefined();
    const redirected = await dcb.requireAccess('prod_unlock')(unlock('bob'));
    expect(redirected?.status).toBe(303);
    expect(redirected?.headers.get('location')).toBe('/offers?product=prod_unlock');

    // A gate's own account and redirect win over the routes' options.
    const byQuery = dcb.requireAccess('prod_unlock', {
      signedInAccount: (request) => new URL(request.url).searchParams.get('as') ?? undefined,
      redirectTo: '/pricing',
    });
    expect(await byQuery(request('/unlock?as=user_1', { account: 'bob' }))).toBeUndefined();
    expect((await byQuery(unlock('user_1')))?.headers.get('location')).toBe('/pricing?product=prod_unlock');

    const withoutOffersPage = createFetchRoutes({ routes, signedInAccount: () => 'bob' });
    const denied = await withoutOffersPage.requireAccess('prod_unlock')(unlock('bob'));
    expect(denied && (await json(denied))).toMatchObject({
      status: 403,
      body: { error: { code: 'access_required', productUid: 'prod_unlock' } },
    });
  });
});
