import type { DcbKit, DcbLogger } from '@dcbkit/core';
import { signWebhook } from '@dcbkit/core/webhooks';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { beforeEach, describe, expect, it } from 'vitest';
import { offlineKit } from '../../core/src/test-support/offline-kit.js';
import { createHonoRoutes, type HonoRoutesOptions } from './create-hono-routes.js';
import { createHonoWebhook } from './create-hono-webhook.js';

// The routes on a real kit; spending a unit and the access gate only touch the store, so the
// client's service is never called (its address has nothing listening).
const SECRET = 'whsec_hono_routes_test';
const silent: DcbLogger = { warn: () => {}, error: () => {} };

/** The app's Env: its sign-in middleware sets `userId`. */
type AppEnv = { Variables: { userId: string | undefined } };

let kit: DcbKit;
beforeEach(() => {
  kit = offlineKit({
    webhookSecrets: SECRET,
    returnUrl: 'https://shop.example/billing/return',
    logger: silent,
  });
});

/** An app whose sign-in middleware names the account from a header, and whose `reading` middleware reads bodies first. */
async function start(options: Partial<HonoRoutesOptions<AppEnv>> = {}, reading?: MiddlewareHandler<AppEnv>) {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set('userId', c.req.header('x-account'));
    await next();
  });
  if (reading) app.use(reading);
  const dcb = createHonoRoutes<AppEnv>({
    routes: kit.routes,
    signedInAccount: (c) => c.get('userId'),
    ...options,
  });
  app.post('/webhooks/dcb', createHonoWebhook(kit.webhook));
  app.all('/passes/:productUid/use', dcb.spendUnit());
  app.all('/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription());
  app.get('/premium', dcb.requireAccess('prod_credits'), (c) => c.text('premium'));
  app.get('/unlock', dcb.requireAccess('prod_credits', { redirectTo: '/pricing' }), (c) =>
    c.text('unlocked'),
  );

  // Alice buys one pass; the service's webhook grants it.
  const body = JSON.stringify({
    event: 'payment.succeeded',
    paymentUid: 'pay_hono_1',
    status: 'SUCCEEDED',
    orderId: 'ord_hono_1',
    productUid: 'prod_credits',
    offerUid: 'off_credits',
    subscriberUid: 'sbr_hono',
    metadata: { accountKey: 'alice' },
    occurredAt: new Date().toISOString(),
  });
  const granted = await app.request('/webhooks/dcb', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'service-signature': signWebhook({ payload: body, secret: SECRET }),
    },
    body,
  });
  expect(await granted.json()).toEqual({ received: true, outcome: 'applied' });
  return app;
}

const form = (who: string, fields: Record<string, string> | string, method = 'POST') => ({
  method,
  headers: { 'x-account': who, 'content-type': 'application/x-www-form-urlencoded' },
  body: method === 'GET' ? undefined : new URLSearchParams(fields).toString(),
});

const isForm = (c: Context) => c.req.header('content-type') === 'application/x-www-form-urlencoded';
const readers: Array<[string, MiddlewareHandler<AppEnv> | undefined]> = [
  ['nothing', undefined],
  [
    'c.req.parseBody()',
    async (c, next) => {
      if (isForm(c)) await c.req.parseBody();
      await next();
    },
  ],
  [
    'c.req.formData()',
    async (c, next) => {
      if (isForm(c)) await c.req.formData();
      await next();
    },
  ],
];

describe('createHonoRoutes', () => {
  it.each(readers)(
    'reads the form and the route param (body read first by %s), answers the view as JSON, then a conflict',
    async (_reader, reading) => {
      const app = await start({}, reading);
      const spend = () =>
        app.request('/passes/prod_credits/use', form('alice', { token: kit.routes.formToken('alice') }));
      const spent = await spend();
      expect(spent.status).toBe(200);
      expect(await spent.json()).toMatchObject({
        kind: 'unit_spent',
        productUid: 'prod_credits',
        unitsLeft: 0,
      });
      const again = await spend();
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ error: { code: 'conflict' } });
    },
  );

  it.each(readers)(
    'keeps the first of a repeated form field, as every adapter does (body read first by %s)',
    async (_reader, reading) => {
      const app = await start({}, reading);
      // `when=LATER&when=NOW`: the first is invalid (400); the last would go on to look the subscription up (404).
      const body = `when=LATER&when=NOW&token=${encodeURIComponent(kit.routes.formToken('alice'))}`;
      const answer = await app.request('/subscriptions/sub_x/cancel', form('alice', body));
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        error: { code: 'invalid_request', message: expect.stringContaining('when') },
      });
    },
  );

  it('takes a JSON body Hono kept only parsed (c.req.json() on releases that cached the object)', async () => {
    const app = await start({}, async (c, next) => {
      if (c.req.path.startsWith('/subscriptions/')) {
        // What those releases left: the raw body read, the parsed object in the cache.
        c.req.bodyCache.json = await c.req.raw.json();
      }
      await next();
    });
    const answer = await app.request('/subscriptions/sub_x/cancel', {
      method: 'POST',
      headers: { 'x-account': 'alice', 'content-type': 'application/json' },
      body: JSON.stringify({ when: 'LATER' }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { message: expect.stringContaining('when') } });
  });

  it('hands views to render and refusals to renderError, adding the refusal’s Allow header', async () => {
    const app = await start({
      render: (view, c) => c.html(`<p>${view.kind} for ${c.get('userId')}</p>`),
      renderError: (error, c) => c.html(`<p>${error.code}</p>`, 405),
    });
    const spent = await app.request(
      '/passes/prod_credits/use',
      form('alice', { token: kit.routes.formToken('alice') }),
    );
    expect(await spent.text()).toBe('<p>unit_spent for alice</p>');
    const link = await app.request('/passes/prod_credits/use', form('alice', {}, 'GET'));
    expect(link.status).toBe(405);
    expect(link.headers.get('allow')).toBe('POST');
    expect(await link.text()).toBe('<p>method_not_allowed</p>');
  });

  it('lets the access gate through, answers 403, or redirects to the offers page', async () => {
    const app = await start();
    expect(await (await app.request('/premium', { headers: { 'x-account': 'alice' } })).text()).toBe(
      'premium',
    );
    expect((await app.request('/premium', { headers: { 'x-account': 'bob' } })).status).toBe(403);
    const redirected = await app.request('/unlock', { headers: { 'x-account': 'bob' } });
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get('location')).toBe('/pricing?product=prod_credits');
    expect((await app.request('/premium')).status).toBe(403);
  });
});
