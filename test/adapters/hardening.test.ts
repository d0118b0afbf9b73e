/**
 * Issue 25 through every adapter: methods, form tokens bound to a session, the checkout URL, and
 * repeated fields, on Express 4 and 5 and Koa 2 and 3, each against the sandbox.
 */
import type { RequestListener } from 'node:http';
import type { ReconcileStore } from '@dcbkit/core/store';
import type { Sandbox } from '@dcbkit/sandbox';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { listen, type RunningServer } from '../support/listen.js';
import { APP_VARIANTS, accountHeader, type Mounting, sessionHeader } from '../support/partner-apps.js';
import { createPartnerKit, type KitOverrides, type PartnerKit } from '../support/partner-kit.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(APP_VARIANTS)('$name: hardening', (variant) => {
  async function start(
    mounting: Mounting = 'post',
    overrides: KitOverrides = {},
  ): Promise<{ sandbox: Sandbox; app: RunningServer; kit: PartnerKit }> {
    const sandbox = await startTestSandbox();
    cleanups.push(() => sandbox.close());
    let listener: RequestListener = (_req, res) => res.end();
    const app = await listen((req, res) => listener(req, res));
    cleanups.push(() => app.close());
    const kit = createPartnerKit(sandbox, `${app.url}/return`, overrides);
    listener = await variant.build(kit, 'none', undefined, mounting);
    return { sandbox, app, kit };
  }

  const ownPage = (app: RunningServer) => ({ origin: app.url, 'sec-fetch-site': 'same-origin' });
  /** A checkout form Alice's browser posts from the app's own page. */
  const checkout = (
    app: RunningServer,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) =>
    request(app.url)
      .post('/checkout')
      .set({ [accountHeader]: 'alice', ...ownPage(app), ...headers })
      .type('form')
      .send(new URLSearchParams(fields).toString());

  it.each(['GET', 'PUT', 'DELETE'])(
    'routes mounted on every method answer %s with 405 and change nothing',
    async (method) => {
      const { app, kit } = await start('any_method');
      const paths = [
        '/checkout?offerUid=offer_full_unlock',
        '/subscriptions/sub_x/cancel?when=NOW',
        '/subscriptions/sub_x/resume',
        '/payments/pay_x/cancel',
      ];
      for (const path of paths) {
        // What a link or a top-level navigation sends: the session's cookie and the query.
        const answer = await request(app.url)
          [method.toLowerCase() as 'get' | 'put' | 'delete'](path)
          .set({ [accountHeader]: 'alice', 'sec-fetch-site': 'cross-site' });
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(answer.headers.allow).toBe('POST');
        expect(answer.body).toMatchObject({ error: { code: 'method_not_allowed' } });
      }
      // No checkout was started for the account.
      const store = kit.store as PartnerKit['store'] & Pick<ReconcileStore, 'listPendingPaymentsOfAccount'>;
      expect(await store.listPendingPaymentsOfAccount('alice')).toEqual([]);
    },
  );

  it('binds form tokens to the session the app names', async () => {
    const { app, kit } = await start();
    const token = kit.routes.formToken('alice', 'session_a');
    const fields = { offerUid: 'offer_full_unlock', token };
    const other = await checkout(app, fields, { [sessionHeader]: 'session_b' });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ error: { code: 'cross_site_request' } });
    const own = await checkout(app, fields, { [sessionHeader]: 'session_a' });
    expect(own.status).toBe(303);
  });

  it('refuses a checkout URL off the configured checkout host: 502, no Location, nothing to frame', async () => {
    const { app, kit } = await start('post', { checkoutBaseUrl: 'https://checkout.elsewhere.example' });
    for (const presentation of ['redirect', 'embedded']) {
      const fields = { offerUid: 'offer_full_unlock', presentation, token: kit.routes.formToken('alice') };
      const answer = await checkout(app, fields);
      expect(answer.status).toBe(502);
      expect(answer.headers.location).toBeUndefined();
      expect(answer.text).not.toContain('/c/');
      expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'service_unavailable' } });
    }
    expect(kit.logs.some((line) => line.includes('checkout URL'))).toBe(true);
  });

  it('takes the checkout URL on the sandbox’s own checkout host', async () => {
    const { app, kit, sandbox } = await start('post');
    const fields = { offerUid: 'offer_full_unlock', token: kit.routes.formToken('alice') };
    const answer = await checkout(app, fields);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toMatch(new RegExp(`^${sandbox.checkoutBaseUrl}/c/pay_`));
  });

  it('reads the first of a repeated form field, whatever parsed it', async () => {
    const { app, kit } = await start();
    // `when=LATER&when=NOW`: the first is invalid (400); reading the last would go on to look the
    // subscription up (404).
    const body = `when=LATER&when=NOW&token=${encodeURIComponent(kit.routes.formToken('alice'))}`;
    const answer = await request(app.url)
      .post('/subscriptions/sub_x/cancel')
      .set({ [accountHeader]: 'alice', ...ownPage(app) })
      .type('form')
      .send(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: { code: 'invalid_request', message: expect.stringContaining('when') },
    });
  });
});
