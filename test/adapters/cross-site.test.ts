/**
 * Issue 11: another site's page must not start a checkout, cancel or resume for a signed-in
 * subscriber, and a link must not change state through the query string.
 */
import type { RequestListener } from 'node:http';
import type { Sandbox } from '@dcbkit/sandbox';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { listen, type RunningServer } from '../support/listen.js';
import { APP_VARIANTS, accountHeader } from '../support/partner-apps.js';
import { createPartnerKit, type PartnerKit } from '../support/partner-kit.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(APP_VARIANTS)('$name: cross-site requests', (variant) => {
  async function start(): Promise<{ sandbox: Sandbox; app: RunningServer; kit: PartnerKit }> {
    const sandbox = await startTestSandbox();
    cleanups.push(() => sandbox.close());
    let listener: RequestListener = (_req, res) => res.end();
    const app = await listen((req, res) => listener(req, res));
    cleanups.push(() => app.close());
    const kit = createPartnerKit(sandbox, `${app.url}/return`);
    listener = await variant.build(kit, 'none');
    return { sandbox, app, kit };
  }

  /** A form Alice's browser posts to the app, with the headers of the page it comes from. */
  const form = (
    app: RunningServer,
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string>,
  ) =>
    request(app.url)
      .post(path)
      .set({ [accountHeader]: 'alice', ...headers })
      .type('form')
      .send(new URLSearchParams(fields).toString());

  it('refuses a form another site posts with the session, even with a valid form token', async () => {
    const { app, kit } = await start();
    const token = kit.routes.formToken('alice');
    const evil = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    const checkout = await form(app, '/checkout', { offerUid: 'offer_full_unlock', token }, evil);
    expect(checkout.status).toBe(403);
    expect(checkout.body).toEqual({
      error: { code: 'cross_site_request', message: expect.any(String) },
    });
    const cancel = await form(app, '/subscriptions/sub_x/cancel', { when: 'NOW', token }, evil);
    expect(cancel.status).toBe(403);
    const resume = await form(app, '/subscriptions/sub_x/resume', { token }, evil);
    expect(resume.status).toBe(403);
  });

  it('refuses a same-site form without this account’s token, and accepts it with one', async () => {
    const { app, kit } = await start();
    const own = { origin: app.url, 'sec-fetch-site': 'same-origin' };
    const missing = await form(app, '/checkout', { offerUid: 'offer_full_unlock' }, own);
    expect(missing.status).toBe(403);
    const bobs = await form(
      app,
      '/checkout',
      { offerUid: 'offer_full_unlock', token: kit.routes.formToken('bob') },
      own,
    );
    expect(bobs.status).toBe(403);
    const ok = await form(
      app,
      '/checkout',
      { offerUid: 'offer_full_unlock', token: kit.routes.formToken('alice') },
      own,
    );
    expect(ok.status).toBe(303);
  });

  it('never reads a state-changing field from the query string', async () => {
    const { app } = await start();
    const answer = await request(app.url)
      .post('/subscriptions/sub_x/cancel?when=PERIOD_END')
      .set(accountHeader, 'alice')
      .send({});
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: 'invalid_request' } });
  });
});
