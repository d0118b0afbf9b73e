import { tokenResponseSchema } from '@dcbkit/core/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../start/start-sandbox.js';
import {
  apiGet,
  apiPost,
  createPayment,
  errorOf,
  expectApiError,
  getToken,
  type JsonAnswer,
  paymentBody,
} from '../test-support/api-client.js';
import { addApplication, startTestSandbox } from '../test-support/sandbox-fixture.js';

let sandbox: Sandbox;
afterEach(() => sandbox.close());

function tokenRequest(fields: Record<string, string>, contentType = 'application/x-www-form-urlencoded') {
  return fetch(`${sandbox.apiBaseUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: contentType.includes('json') ? JSON.stringify(fields) : new URLSearchParams(fields),
  });
}

async function asAnswer(response: Response): Promise<JsonAnswer> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
}

describe('POST /oauth2/token', () => {
  it('issues a bearer token for an hour, as plain JSON', async () => {
    sandbox = await startTestSandbox();
    const { clientId, clientSecret } = sandbox.credentials;
    const response = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    expect(tokenResponseSchema.parse(body)).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
    });
    expect(body).not.toHaveProperty('success');
  });

  it('refuses wrong, unknown and production credentials with 401 ATH-001', async () => {
    sandbox = await startTestSandbox();
    const { clientId } = sandbox.credentials;
    for (const [id, secret] of [
      [clientId, 'wrong-secret'],
      ['svc_test_unknown', 'whatever-secret'],
      ['svc_live_demo', sandbox.credentials.clientSecret],
    ] as const) {
      const response = await tokenRequest({
        grant_type: 'client_credentials',
        client_id: id,
        client_secret: secret,
      });
      expectApiError(await asAnswer(response), 'ATH-001');
    }
  });

  it('wants a form-encoded client_credentials request with every field', async () => {
    sandbox = await startTestSandbox();
    const { clientId, clientSecret } = sandbox.credentials;
    const asJson = await tokenRequest(
      { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
      'application/json',
    );
    expectApiError(await asAnswer(asJson), 'VAL-002');
    const missing = await tokenRequest({ grant_type: 'client_credentials', client_id: clientId });
    expectApiError(await asAnswer(missing), 'VAL-001');
    const password = await tokenRequest({
      grant_type: 'password',
      client_id: clientId,
      client_secret: clientSecret,
    });
    expectApiError(await asAnswer(password), 'VAL-002');
  });
});

describe('bearer tokens (ATH-002)', () => {
  it('refuses a missing, malformed, unknown or expired token', async () => {
    sandbox = await startTestSandbox();
    const path = '/v1/capabilities?countryCode=TN';
    expectApiError(await apiGet(sandbox, path), 'ATH-002');
    expectApiError(await apiGet(sandbox, path, undefined, { authorization: 'Token abc' }), 'ATH-002');
    expectApiError(await apiGet(sandbox, path, 'sbx_at_not-a-token'), 'ATH-002');
    const token = await getToken(sandbox);
    expect((await apiGet(sandbox, path, token)).status).toBe(200);
    await sandbox.clock.advance(3599);
    expect((await apiGet(sandbox, path, token)).status).toBe(200);
    await sandbox.clock.advance(1);
    const expired = await apiGet(sandbox, path, token);
    expectApiError(expired, 'ATH-002');
    expect(expired.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('knows the caller from the token only: claims in headers or query are ignored', async () => {
    let other = { clientId: '', clientSecret: '' };
    sandbox = await startTestSandbox({
      configure: (config) => {
        other = addApplication(config, 'svc_test_other', ['payments']);
      },
    });
    const demoToken = await getToken(sandbox);
    const created = await createPayment(sandbox, demoToken, paymentBody('offer_day_pass'));
    const paymentUid = (created.body as { data: { paymentUid: string } }).data.paymentUid;
    const otherToken = await getToken(sandbox, other.clientId, other.clientSecret);
    const claims = { 'x-client-id': sandbox.credentials.clientId, 'x-environment': 'production' };
    const asOther = await apiGet(
      sandbox,
      `/v1/payments/${paymentUid}?clientId=${sandbox.credentials.clientId}`,
      otherToken,
      claims,
    );
    expectApiError(asOther, 'PAY-107');
    const asDemo = await apiGet(sandbox, `/v1/payments/${paymentUid}?environment=production`, demoToken, {
      'x-environment': 'production',
    });
    expect(asDemo.status).toBe(200);
  });
});

describe('capabilities per application (AUZ-002)', () => {
  it('refuses each route family the application lacks', async () => {
    let paymentsOnly = { clientId: '', clientSecret: '' };
    let capabilitiesOnly = { clientId: '', clientSecret: '' };
    sandbox = await startTestSandbox({
      configure: (config) => {
        paymentsOnly = addApplication(config, 'svc_test_payments_only', ['payments']);
        capabilitiesOnly = addApplication(config, 'svc_test_capabilities_only', ['capabilities']);
      },
    });
    const payer = await getToken(sandbox, paymentsOnly.clientId, paymentsOnly.clientSecret);
    expectApiError(await apiGet(sandbox, '/v1/capabilities?countryCode=TN', payer), 'AUZ-002');
    expectApiError(await apiGet(sandbox, '/v1/subscriptions/subs_x', payer), 'AUZ-002');
    expect((await createPayment(sandbox, payer, paymentBody('offer_day_pass'))).status).toBe(201);
    const reader = await getToken(sandbox, capabilitiesOnly.clientId, capabilitiesOnly.clientSecret);
    expectApiError(await createPayment(sandbox, reader, paymentBody('offer_day_pass')), 'AUZ-002');
    expectApiError(await apiGet(sandbox, '/v1/payments/pay_x', reader), 'AUZ-002');
    expectApiError(await apiPost(sandbox, '/v1/payments/pay_x/cancel', { token: reader }), 'AUZ-002');
    expect((await apiGet(sandbox, '/v1/capabilities?countryCode=TN', reader)).status).toBe(200);
  });
});

describe('rate limit (SEC-001)', () => {
  it('answers 429 with Retry-After and retryAfterSeconds past the per-application limit, until the window reopens', async () => {
    let limited = { clientId: '', clientSecret: '' };
    sandbox = await startTestSandbox({
      configure: (config) => {
        limited = addApplication(config, 'svc_test_limited', ['capabilities'], {
          requests: 3,
          windowSeconds: 60,
        });
      },
    });
    const token = await getToken(sandbox, limited.clientId, limited.clientSecret);
    const path = '/v1/capabilities?countryCode=TN';
    for (let i = 0; i < 3; i++) expect((await apiGet(sandbox, path, token)).status).toBe(200);
    await sandbox.clock.advance(20);
    const refused = await apiGet(sandbox, path, token);
    expectApiError(refused, 'SEC-001');
    const error = errorOf(refused);
    expect(error.retryable).toBe(true);
    expect(error.retryAfterSeconds).toBe(40);
    expect(refused.headers.get('retry-after')).toBe('40');
    const demoToken = await getToken(sandbox);
    expect((await apiGet(sandbox, path, demoToken)).status).toBe(200);
    await sandbox.clock.advance(40);
    expect((await apiGet(sandbox, path, token)).status).toBe(200);
  });
});

describe('unknown routes', () => {
  it('answer an error envelope', async () => {
    sandbox = await startTestSandbox();
    const answer = await apiGet(sandbox, '/v1/nothing-here');
    expect(answer.status).toBe(404);
    expect(errorOf(answer).code).toBe('SBX-404');
    const wrongMethod = await apiPost(sandbox, '/v1/capabilities');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });
});
