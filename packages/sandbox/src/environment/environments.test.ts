import { createClient } from '@dcbkit/core';
import { paymentSchema } from '@dcbkit/core/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxError } from '../shared/sandbox-error.js';
import type { Sandbox } from '../start/start-sandbox.js';
import {
  apiGet,
  apiPost,
  controlRequest,
  createPayment,
  dataOf,
  expectApiError,
  getToken,
  paymentBody,
} from '../test-support/api-client.js';
import { startTestSandbox } from '../test-support/sandbox-fixture.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver.js';
import { CheckoutBrowser } from '../testing/checkout-browser.js';
import { createCheckoutDriver } from '../testing/checkout-driver.js';

let sandbox: Sandbox;
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await sandbox.close();
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

function tokenAnswer(baseUrl: string, clientId: string, clientSecret: string) {
  return fetch(`${baseUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
}

/** What a control endpoint or page answers, as text (JSON or HTML). */
async function controlText(baseUrl: string, path: string): Promise<string> {
  return (await fetch(`${baseUrl}${path}`)).text();
}

describe('two environments, two deployments', () => {
  it('each has its own API base, checkout host, client ID prefix, webhook secret and credentials', async () => {
    sandbox = await startTestSandbox();
    const { sandbox: test, production: live } = sandbox.environments;
    expect(test.apiBaseUrl).toBe(sandbox.apiBaseUrl);
    expect(test.credentials).toEqual(sandbox.credentials);
    expect(live.apiBaseUrl).not.toBe(test.apiBaseUrl);
    expect(live.checkoutBaseUrl).not.toBe(test.checkoutBaseUrl);
    expect([test.clientIdPrefix, live.clientIdPrefix]).toEqual(['svc_test_', 'svc_live_']);
    expect(test.credentials.clientId).toMatch(/^svc_test_/);
    expect([test.webhookSecret(), live.webhookSecret()]).toEqual([
      'whsec_sandbox_demo_secret',
      'whsec_production_demo_secret',
    ]);
    // Production credentials exist only once approved: the environment holds none to show.
    expect('credentials' in live).toBe(false);
  });

  it('production has no credentials until its review passes; approval issues them and shows the secret once', async () => {
    sandbox = await startTestSandbox();
    const live = sandbox.environments.production;
    expect(live.isLive()).toBe(false);
    expect(sandbox.environments.sandbox.isLive()).toBe(true);
    // Nothing to use before approval: whatever secret is tried, the client ID has none.
    for (const guess of ['production-demo-client-secret', sandbox.credentials.clientSecret]) {
      const refused = await tokenAnswer(live.apiBaseUrl, 'svc_live_demo', guess);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ success: false, error: { code: 'ATH-001' } });
    }
    const before = await apiGet(live, '/sandbox/applications');
    expect(before.body).toMatchObject({ data: [{ clientId: 'svc_live_demo', live: false }] });

    const approved = await controlRequest(live, 'POST', '/sandbox/applications/svc_live_demo/approve', {});
    expect(approved.body).toEqual({
      success: true,
      data: {
        clientId: 'svc_live_demo',
        environment: 'production',
        live: true,
        clientSecret: expect.stringMatching(/^live_[A-Za-z0-9_-]{32}$/),
        webhookSecret: 'whsec_production_demo_secret',
      },
    });
    const { clientSecret } = (approved.body as { data: { clientSecret: string } }).data;
    expect(live.isLive()).toBe(true);
    const issued = await tokenAnswer(live.apiBaseUrl, 'svc_live_demo', clientSecret);
    expect(issued.status).toBe(200);
    expect(((await issued.json()) as { access_token: string }).access_token).toMatch(/^live_at_/);

    // Displayed once: no control endpoint or page shows it again, and approving again is refused.
    for (const path of ['/sandbox/applications', '/sandbox/config', '/sandbox']) {
      expect(await controlText(live.apiBaseUrl, path)).not.toContain(clientSecret);
    }
    expectApiError(
      await controlRequest(live, 'POST', '/sandbox/applications/svc_live_demo/approve', {}),
      'SBX-409',
    );
    expect(() => live.approve()).toThrow(
      expect.objectContaining({ name: 'SandboxError', code: 'already_approved' }),
    );
    expectApiError(await apiPost(live, '/sandbox/applications/svc_live_nobody/approve'), 'SBX-404');
  });

  it('approve() answers the production credentials, the secret in that answer only', async () => {
    sandbox = await startTestSandbox();
    const live = sandbox.environments.production;
    const credentials = live.approve();
    expect(credentials).toEqual({
      clientId: 'svc_live_demo',
      clientSecret: expect.stringMatching(/^live_/),
      webhookSecret: 'whsec_production_demo_secret',
    });
    expect((await tokenAnswer(live.apiBaseUrl, credentials.clientId, credentials.clientSecret)).status).toBe(
      200,
    );
    const error = (() => {
      try {
        live.approve();
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ code: 'already_approved' });
    expect(() => live.approve('svc_live_nobody')).toThrow(
      expect.objectContaining({ code: 'unknown_application' }),
    );
  });

  it('a config may start production live, with the secret its review issued; none before approval', async () => {
    sandbox = await startTestSandbox({
      configure: (config) => {
        const [demo] = config.applications;
        if (demo?.production) {
          demo.production.approved = true;
          demo.production.clientSecret = 'the-secret-its-review-issued';
        }
      },
    });
    const live = sandbox.environments.production;
    expect(live.isLive()).toBe(true);
    expect((await tokenAnswer(live.apiBaseUrl, 'svc_live_demo', 'the-secret-its-review-issued')).status).toBe(
      200,
    );
    for (const host of [live.apiBaseUrl, sandbox.apiBaseUrl]) {
      for (const path of ['/sandbox/config', '/sandbox']) {
        expect(await controlText(host, path)).not.toContain('the-secret-its-review-issued');
      }
    }
  });

  it('credentials and tokens never cross environments', async () => {
    sandbox = await startTestSandbox();
    const { sandbox: test, production } = sandbox.environments;
    const live = { apiBaseUrl: production.apiBaseUrl, credentials: production.approve() };
    // Each environment's credentials get no token from the other one.
    const testAtLive = await tokenAnswer(
      live.apiBaseUrl,
      test.credentials.clientId,
      test.credentials.clientSecret,
    );
    const liveAtTest = await tokenAnswer(
      test.apiBaseUrl,
      live.credentials.clientId,
      live.credentials.clientSecret,
    );
    expect([testAtLive.status, liveAtTest.status]).toEqual([401, 401]);
    // A sandbox token cannot reach production, nor a production token the sandbox.
    const testToken = await getToken(test);
    const liveToken = await getToken(live);
    expectApiError(await apiGet(live, '/v1/capabilities?countryCode=TN', testToken), 'ATH-002');
    expectApiError(await apiGet(test, '/v1/capabilities?countryCode=TN', liveToken), 'ATH-002');
    expect((await apiGet(live, '/v1/capabilities?countryCode=TN', liveToken)).status).toBe(200);
    // A payment of one environment is not found in the other.
    const created = dataOf(
      await createPayment(live, liveToken, paymentBody('offer_day_pass')),
      paymentSchema,
    );
    expect(created.checkoutUrl).toBe(`${production.checkoutBaseUrl}/c/${created.paymentUid}`);
    expectApiError(await apiGet(test, `/v1/payments/${created.paymentUid}`, testToken), 'PAY-107');
    const checkoutOnTestHost = await fetch(`${test.checkoutBaseUrl}/c/${created.paymentUid}`);
    expect(checkoutOnTestHost.status).toBe(404);
  });

  it('each posts to its own webhook URL, signed with its own secret; pages say no money moves', async () => {
    const testReceiver = await startWebhookReceiver();
    const liveReceiver = await startWebhookReceiver();
    receivers.push(testReceiver, liveReceiver);
    sandbox = await startTestSandbox({
      webhookUrl: testReceiver.url,
      production: { webhookUrl: liveReceiver.url },
    });
    const { sandbox: test, production } = sandbox.environments;
    const live = { ...production, credentials: production.approve() };
    for (const env of [test, live]) {
      const token = await getToken(env);
      const payment = dataOf(await createPayment(env, token, paymentBody('offer_day_pass')), paymentSchema);
      const page = await (await fetch(payment.checkoutUrl)).text();
      expect(page).toContain(
        env.name === 'production' ? 'Production (emulated): no money moves' : 'Sandbox: no money moves',
      );
      await createCheckoutDriver(env).pay(payment.checkoutUrl);
    }
    await sandbox.deliverDue();
    expect(testReceiver.verifiedEvents(test.webhookSecret()).map((event) => event.event)).toEqual([
      'payment.succeeded',
    ]);
    expect(liveReceiver.verifiedEvents(production.webhookSecret()).map((event) => event.event)).toEqual([
      'payment.succeeded',
    ]);
    expect(() => liveReceiver.verifiedEvents(test.webhookSecret())).toThrow();
    expect(production.webhooks()).toHaveLength(1);
    expect(sandbox.webhooks()).toHaveLength(1);
  });
});

describe("core's client and its environment guard, end to end", () => {
  it('a production client works once approval issued its credentials; crossed credentials are refused before or at the token', async () => {
    sandbox = await startTestSandbox();
    const { sandbox: test, production: live } = sandbox.environments;
    const params = {
      mode: 'HOSTED',
      offerUid: 'offer_day_pass',
      returnUrl: 'https://partner.example/r',
    } as const;
    // Before approval a partner holds no secret; a guessed one gets no token.
    const guessed = createClient({
      environment: 'production',
      baseUrl: live.apiBaseUrl,
      clientId: 'svc_live_demo',
      clientSecret: 'production-demo-client-secret',
    });
    await expect(guessed.payments.create(params)).rejects.toMatchObject({
      code: 'token_refused',
      httpStatus: 401,
      message: expect.stringContaining('issued when the go-live review approves the application'),
    });
    const credentials = live.approve();
    const production = createClient({ environment: 'production', baseUrl: live.apiBaseUrl, ...credentials });
    const payment = await production.payments.create(params);
    expect(payment.checkoutUrl.startsWith(`${live.checkoutBaseUrl}/c/`)).toBe(true);
    await createCheckoutDriver(live).pay(payment.checkoutUrl, { method: 'PIN' });
    await expect(production.payments.retrieve(payment.paymentUid)).resolves.toMatchObject({
      status: 'SUCCEEDED',
    });

    // The client's guard: a sandbox client ID never goes out as a production one, nor the reverse.
    expect(() =>
      createClient({ environment: 'production', baseUrl: live.apiBaseUrl, ...test.credentials }),
    ).toThrow(/svc_test_/);
    expect(() => createClient({ environment: 'sandbox', baseUrl: test.apiBaseUrl, ...credentials })).toThrow(
      /svc_live_/,
    );
    // Right environment, wrong deployment: the production host does not know sandbox credentials.
    const misdirected = createClient({
      environment: 'sandbox',
      baseUrl: live.apiBaseUrl,
      ...test.credentials,
    });
    await expect(misdirected.payments.retrieve(payment.paymentUid)).rejects.toMatchObject({
      code: 'token_refused',
      message: expect.stringContaining(
        'client ID and secret of the sandbox: production credentials are not valid there',
      ),
    });
  });
});

describe('the production dashboard', () => {
  it('shows no credentials before approval, the issued secret once after Approve, then only that it was shown', async () => {
    sandbox = await startTestSandbox();
    const live = sandbox.environments.production;
    const browser = new CheckoutBrowser(live.apiBaseUrl);
    const before = await browser.open(`${live.apiBaseUrl}/sandbox`);
    expect(before.html).toContain('Production (emulated): no money moves');
    expect(before.html).toContain('not live until approved');
    expect(before.html).toContain('client ID and secret: none yet');
    expect(before.html).not.toContain('client secret <code>');
    expect(before.forms.some((form) => form.action === '/sandbox/checkout')).toBe(false);

    const after = await browser.submit(before, '/sandbox/applications/svc_live_demo/approve');
    expect(after.url).toBe(`${live.apiBaseUrl}/sandbox`);
    expect(after.html).toContain('status: live');
    expect(after.html).toContain('Shown once: copy it now.');
    const shown = /client secret <code>(live_[A-Za-z0-9_-]+)<\/code>/.exec(after.html)?.[1] ?? '';
    expect((await tokenAnswer(live.apiBaseUrl, 'svc_live_demo', shown)).status).toBe(200);
    expect(after.forms.filter((form) => form.action === '/sandbox/checkout').length).toBeGreaterThan(0);
    expect(live.isLive()).toBe(true);

    const again = await browser.open(`${live.apiBaseUrl}/sandbox`);
    expect(again.html).not.toContain(shown);
    expect(again.html).toContain('client secret: shown once, when the go-live review passed');
  });
});
