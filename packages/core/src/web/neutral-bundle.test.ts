/**
 * `@dcbkit/core/web` as an edge runtime's bundler sees it: the built entry bundled by esbuild for
 * `platform: 'neutral'`, then run in a realm with the web APIs of an edge runtime and nothing of
 * node. There, the full webhook handler (verification on Web Crypto, chosen by itself), the memory
 * store and ledger, and the fetch webhook and access gate run as they do on Node.
 */
import { describe, expect, it } from 'vitest';
import type { PartnerRoutes } from '../routes/partner-route-types.js';
import { offers, paymentEvent, SECRET } from '../test-support/fixtures.js';
import { bundleEntry, edgeRealm, whyNotBuilt } from '../test-support/neutral-bundle.js';
import { signWebhook } from '../webhooks/sign-webhook.js';

type Web = typeof import('./index.js');

const notBuilt = await whyNotBuilt('./web');

/** A delivery as the service posts it, signed on Node (so the realm's Web Crypto must agree). */
function delivery(payload: string, signedWith = payload): Request {
  return new Request('https://shop.example/webhooks/dcb', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'service-signature': signWebhook({ payload: signedWith, secret: SECRET }),
    },
    body: payload,
  });
}

describe.skipIf(notBuilt !== undefined && !process.env.CI)(
  `@dcbkit/core/web bundled for platform neutral${notBuilt ? ` (skipped: ${notBuilt}; run \`pnpm --filter @dcbkit/core build\`)` : ''}`,
  () => {
    it('resolves no node builtin, and takes in nothing but the build and its dependencies', async () => {
      expect(notBuilt, 'build @dcbkit/core before this test').toBeUndefined();
      const { code, inputs } = await bundleEntry('./web', 'esm');
      const outside = inputs.filter((input) => !input.includes('dist/'));
      expect(outside.every((input) => /node_modules\/(\.pnpm\/)?(zod|@opentelemetry)/.test(input))).toBe(
        true,
      );
      expect(code).not.toMatch(/\brequire\(|from\s*["']node:/);
    });

    it('runs the full handler through createFetchWebhook where only web APIs exist: applied once, duplicate, 401', async () => {
      const { exports: web, evaluate } = edgeRealm<Web>((await bundleEntry('./web', 'iife')).code, 'dcbkit');
      expect(evaluate('[typeof process, typeof Buffer, typeof require].join()')).toBe(
        'undefined,undefined,undefined',
      );
      const store = web.memoryStore();
      const errors: string[] = [];
      const handler = web.createWebhookHandler({
        secrets: SECRET,
        store,
        ledger: web.memoryLedger(),
        offers: offers.list,
        logger: { warn: () => {}, error: (_fields, message) => errors.push(message) },
      });
      const webhook = web.createFetchWebhook(handler);
      const now = new Date().toISOString();
      const body = JSON.stringify(paymentEvent('payment.succeeded', 0, 'off_unlock', { occurredAt: now }));

      const answers = [];
      for (const request of [
        delivery(body),
        delivery(body),
        delivery(body.replace('user_1', 'user_2'), body),
      ]) {
        const response = await webhook(request);
        answers.push([response.status, await response.json()]);
      }
      expect(answers).toEqual([
        [200, { received: true, outcome: 'applied' }],
        [200, { received: true, outcome: 'duplicate' }],
        [401, { received: false, error: 'signature_mismatch' }],
      ]);
      expect(await store.get('user_1', 'prod_unlock')).toMatchObject({ status: 'ACTIVE' });
      expect(await store.get('user_2', 'prod_unlock')).toBeUndefined();
      expect(handler.health()).toMatchObject({ accepted: 1, duplicate: 1 });

      const read = delivery(body);
      await read.text();
      expect((await webhook(read)).status).toBe(500);
      expect(errors.join('\n')).toMatch(/raw body is gone/);
    });

    it('answers the access gate with a Response', async () => {
      const { exports: web } = edgeRealm<Web>((await bundleEntry('./web', 'iife')).code, 'dcbkit');
      // Only the gate's part of the routes, and checkout, by which createFetchRoutes knows them for routes.
      const routes = {
        checkout: async () => {
          throw new Error('not called by the gate');
        },
        checkAccess: async (accountKey: string | undefined) => ({
          allowed: accountKey === 'alice',
          entitlement: undefined,
        }),
      } as unknown as PartnerRoutes;
      const dcb = web.createFetchRoutes({
        routes,
        signedInAccount: (request) => request.headers.get('x-account') ?? undefined,
      });
      const gate = dcb.requireAccess('prod_unlock');
      const as = (account: string) =>
        new Request('https://shop.example/unlock', { headers: { 'x-account': account } });
      expect(await gate(as('alice'))).toBeUndefined();
      const denied = await gate(as('bob'));
      expect(denied?.status).toBe(403);
      expect(await denied?.json()).toMatchObject({
        error: { code: 'access_required', productUid: 'prod_unlock' },
      });
    });
  },
);
