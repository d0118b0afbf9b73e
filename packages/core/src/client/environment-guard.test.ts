import { createClient, DcbError } from '@dcbkit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paymentFixture } from './test-support/fixtures.js';
import { issueTokens, ok, type ScriptedServer, startScriptedServer } from './test-support/scripted-server.js';

let server: ScriptedServer;
let fetchCalls: number;
const countingFetch: typeof fetch = (input, init) => {
  fetchCalls++;
  return fetch(input, init);
};

beforeEach(async () => {
  fetchCalls = 0;
  server = await startScriptedServer({ 'GET /v1/payments/pay_1': ok(paymentFixture()) });
});
afterEach(() => server.close());

function configurationError(run: () => unknown): DcbError {
  try {
    run();
  } catch (error) {
    if (error instanceof DcbError) return error;
    throw error;
  }
  throw new Error('expected a DcbError');
}

const base = () => ({ baseUrl: server.url, clientSecret: 'secret', fetch: countingFetch });

describe('environment guard', () => {
  it.each([
    ['sandbox', 'svc_live_app_1', 'environment_mismatch'],
    ['production', 'svc_test_app_1', 'environment_mismatch'],
    ['sandbox', 'sk_test_app_1', 'unknown_client_id_prefix'],
    ['production', 'svc_prod_app_1', 'unknown_client_id_prefix'],
    ['production', 'SVC_LIVE_app_1', 'unknown_client_id_prefix'],
    ['sandbox', 'svc_test_', 'invalid_option'],
    ['sandbox', '', 'invalid_option'],
  ] as const)(
    '%s with client ID %j is refused at creation (%s) and makes no request',
    async (environment, clientId, reason) => {
      const error = configurationError(() => createClient({ ...base(), environment, clientId }));
      expect(error.code).toBe(reason);
      expect(error.details.option).toBe('clientId');
      expect(fetchCalls).toBe(0);
      expect(server.requests).toHaveLength(0);
    },
  );

  it('names both environments in the mismatch message, without the secret', () => {
    const error = configurationError(() =>
      createClient({ ...base(), environment: 'sandbox', clientId: 'svc_live_app_1' }),
    );
    expect(error.message).toContain('production client ID');
    expect(error.message).toContain("environment is 'sandbox'");
    expect(error.message).not.toContain('secret');
  });

  it('refuses an environment that is neither sandbox nor production', () => {
    const error = configurationError(() =>
      createClient({ ...base(), environment: 'staging' as 'sandbox', clientId: 'svc_test_app_1' }),
    );
    expect(error).toMatchObject({ code: 'invalid_option', details: { option: 'environment' } });
  });

  it.each([
    ['sandbox', 'svc_test_app_1'],
    ['production', 'svc_live_app_1'],
  ] as const)(
    'accepts %s with %s, and creating sends nothing until the first call',
    async (environment, clientId) => {
      const client = createClient({ ...base(), environment, clientId });
      expect(client.environment).toBe(environment);
      expect(fetchCalls).toBe(0);
      await client.payments.retrieve('pay_1');
      expect(server.to('POST /oauth2/token')).toHaveLength(1);
      expect(new URLSearchParams(server.to('POST /oauth2/token')[0]?.body).get('client_id')).toBe(clientId);
    },
  );
});

describe('other options', () => {
  const valid = () => ({ ...base(), environment: 'sandbox' as const, clientId: 'svc_test_app_1' });

  it.each([
    ['clientSecret', { clientSecret: '' }],
    ['baseUrl', { baseUrl: 'not a url' }],
    ['baseUrl', { baseUrl: 'ftp://127.0.0.1/' }],
    ['baseUrl', { baseUrl: 'http://127.0.0.1/?x=1' }],
    ['baseUrl', { baseUrl: 'http://user:pass@127.0.0.1/' }],
    ['baseUrl', { baseUrl: undefined as unknown as string }],
    ['timeoutMs', { timeoutMs: 0 }],
    ['timeoutMs', { timeoutMs: 1.5 }],
    ['maxRetries', { maxRetries: -1 }],
    ['maxRetryDelayMs', { maxRetryDelayMs: Number.NaN }],
  ])('refuses a bad %s', (option, override) => {
    const error = configurationError(() => createClient({ ...valid(), ...override }));
    expect(error).toMatchObject({ code: 'invalid_option', details: { option } });
    expect(fetchCalls).toBe(0);
  });

  it('keeps a path prefix of the base URL and ignores a trailing slash', async () => {
    const prefixed = await startScriptedServer({
      'POST /api/oauth2/token': issueTokens,
      'GET /api/v1/payments/pay_1': ok(paymentFixture()),
    });
    try {
      const client = createClient({ ...valid(), baseUrl: `${prefixed.url}/api/` });
      await expect(client.payments.retrieve('pay_1')).resolves.toMatchObject({ object: 'payment' });
      expect(prefixed.requests.map((r) => r.path)).toEqual(['/api/oauth2/token', '/api/v1/payments/pay_1']);
    } finally {
      await prefixed.close();
    }
  });
});
