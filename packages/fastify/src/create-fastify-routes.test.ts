import type { DcbKit, DcbLogger } from '@dcbkit/core';
import { signWebhook } from '@dcbkit/core/webhooks';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { offlineKit } from '../../core/src/test-support/offline-kit.js';
import { createFastifyRoutes, type FastifyRoutesOptions } from './create-fastify-routes.js';
import { fastifyDcbkit } from './fastify-dcbkit.js';

// The routes on a real kit; spending a unit and the access gate only touch the store, so the
// client's service is never called (its address has nothing listening).
const SECRET = 'whsec_fastify_routes_test';
const silent: DcbLogger = { warn: () => {}, error: () => {} };

let kit: DcbKit;
let app: FastifyInstance;
beforeEach(async () => {
  kit = offlineKit({
    webhookSecrets: SECRET,
    returnUrl: 'https://shop.example/billing/return',
    logger: silent,
  });
  app = Fastify();
});
afterEach(() => app.close());

/** Alice buys one pass; the service's webhook grants it. */
async function grantAlice(): Promise<void> {
  const body = JSON.stringify({
    event: 'payment.succeeded',
    paymentUid: 'pay_fastify_1',
    status: 'SUCCEEDED',
    orderId: 'ord_fastify_1',
    productUid: 'prod_credits',
    offerUid: 'off_credits',
    subscriberUid: 'sbr_fastify',
    metadata: { accountKey: 'alice' },
    occurredAt: new Date().toISOString(),
  });
  const answer = await app.inject({
    method: 'POST',
    url: '/webhooks/dcb',
    headers: {
      'content-type': 'application/json',
      'service-signature': signWebhook({ payload: body, secret: SECRET }),
    },
    body,
  });
  expect(answer.json()).toEqual({ received: true, outcome: 'applied' });
}

const account = (request: { headers: Record<string, unknown> }) => {
  const value = request.headers['x-account'];
  return typeof value === 'string' ? value : undefined;
};

async function start(options: Partial<FastifyRoutesOptions> = {}, where: 'plugin' | 'formbody' = 'plugin') {
  const dcb = createFastifyRoutes({ routes: kit.routes, signedInAccount: account, ...options });
  if (where === 'plugin') {
    await app.register(fastifyDcbkit, {
      webhook: kit.webhook,
      mount: (scope) => {
        scope.all('/passes/:productUid/use', dcb.spendUnit());
      },
    });
  } else {
    await app.register(formbody);
    await app.register(fastifyDcbkit, { webhook: kit.webhook });
    app.all('/passes/:productUid/use', dcb.spendUnit());
  }
  app.get('/premium', { preHandler: dcb.requireAccess('prod_credits') }, async () => 'premium');
  app.get(
    '/unlock',
    { preHandler: dcb.requireAccess('prod_credits', { redirectTo: '/pricing' }) },
    async () => 'unlocked',
  );
  await grantAlice();
}

const spend = (who: string, method = 'POST') =>
  app.inject({
    method,
    url: '/passes/prod_credits/use',
    headers: { 'x-account': who, 'content-type': 'application/x-www-form-urlencoded' },
    body: method === 'GET' ? undefined : new URLSearchParams({ token: kit.routes.formToken(who) }).toString(),
  });

describe('createFastifyRoutes', () => {
  it.each(['plugin', 'formbody'] as const)(
    'reads a form posted to a route (%s) and answers the view as JSON, then a conflict',
    async (where) => {
      await start({}, where);
      const spent = await spend('alice');
      expect(spent.statusCode).toBe(200);
      expect(spent.json()).toMatchObject({ kind: 'unit_spent', productUid: 'prod_credits', unitsLeft: 0 });
      const again = await spend('alice');
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: { code: 'conflict' } });
    },
  );

  it('hands views to render and refusals to renderError, with the refusal’s headers already set', async () => {
    await start({
      render: (view, _request, reply) => reply.type('text/html').send(`<p>${view.kind}</p>`),
      renderError: (error, _request, reply) =>
        reply
          .code(error.httpStatus ?? 400)
          .type('text/html')
          .send(`<p>${error.code}</p>`),
    });
    const spent = await spend('alice');
    expect(spent.body).toBe('<p>unit_spent</p>');
    const link = await spend('alice', 'GET');
    expect(link.statusCode).toBe(405);
    expect(link.headers.allow).toBe('POST');
    expect(link.body).toBe('<p>method_not_allowed</p>');
  });

  it('lets the access gate through, answers 403, or redirects to the offers page', async () => {
    await start();
    expect((await app.inject({ url: '/premium', headers: { 'x-account': 'alice' } })).body).toBe('premium');
    const refused = await app.inject({ url: '/premium', headers: { 'x-account': 'bob' } });
    expect(refused.statusCode).toBe(403);
    const redirected = await app.inject({ url: '/unlock', headers: { 'x-account': 'bob' } });
    expect(redirected.statusCode).toBe(303);
    expect(redirected.headers.location).toBe('/pricing?product=prod_credits');
    expect(redirected.body).toBe('');
  });
});
