import { createClient, DcbError, isDcbError } from '@dcbkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { paymentFixture, testClientOptions } from './test-support/fixtures.js';
import { ok, type ScriptedServer, startScriptedServer } from './test-support/scripted-server.js';

const GET_PAYMENT = 'GET /v1/payments/pay_1';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(routes: Parameters<typeof startScriptedServer>[0], overrides = {}) {
  server = await startScriptedServer(routes);
  return createClient(testClientOptions(server.url, overrides).options);
}

describe('per-call options', () => {
  it('an AbortSignal abandons the call, retries included, with code aborted', async () => {
    const client = await clientFor({ [GET_PAYMENT]: { delayMs: 5_000, answer: ok(paymentFixture()) } });
    const controller = new AbortController();
    const started = Date.now();
    const pending = client.payments.retrieve('pay_1', { signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(new Error('user navigated away')), 50);
    const error = await pending;
    expect(error).toBeInstanceOf(DcbError);
    expect(error).toMatchObject({ code: 'aborted', details: { method: 'GET', path: '/v1/payments/pay_1' } });
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('an already aborted signal sends nothing', async () => {
    const client = await clientFor({ [GET_PAYMENT]: ok(paymentFixture()) });
    const error = await client.payments
      .retrieve('pay_1', { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(isDcbError(error, 'aborted')).toBe(true);
    expect(server?.to(GET_PAYMENT)).toHaveLength(0);
  });

  it('a call may set its own timeout, shorter than the client’s', async () => {
    const client = await clientFor(
      { [GET_PAYMENT]: { delayMs: 5_000, answer: ok(paymentFixture()) } },
      { maxRetries: 0 },
    );
    const started = Date.now();
    const error = await client.payments.retrieve('pay_1', { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(isDcbError(error, 'timeout')).toBe(true);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('refuses call options it cannot use', async () => {
    const client = await clientFor({ [GET_PAYMENT]: ok(paymentFixture()) });
    await expect(client.payments.retrieve('pay_1', { timeoutMs: 0 })).rejects.toMatchObject({
      code: 'invalid_option',
      details: { option: 'timeoutMs' },
    });
  });
});

describe('answer size', () => {
  it('refuses an answer larger than maxResponseBytes, declared or streamed, and does not retry it', async () => {
    const big = 'x'.repeat(4096);
    const client = await clientFor(
      { [GET_PAYMENT]: ok({ ...paymentFixture(), metadata: { big } }) },
      { maxResponseBytes: 1024 },
    );
    const error = await client.payments.retrieve('pay_1').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'response_too_large' });
    expect(server?.to(GET_PAYMENT)).toHaveLength(1);
  });

  it('accepts an answer within the limit', async () => {
    const client = await clientFor({ [GET_PAYMENT]: ok(paymentFixture()) }, { maxResponseBytes: 4096 });
    await expect(client.payments.retrieve('pay_1')).resolves.toMatchObject({ object: 'payment' });
  });
});

describe('base URL rules', () => {
  const production = { environment: 'production' as const, clientId: 'svc_live_app_1', clientSecret: 's' };

  it('production needs https, except on a loopback address', () => {
    expect(() => createClient({ ...production, baseUrl: 'http://api.example.com' })).toThrow(
      expect.objectContaining({ code: 'invalid_option', details: { option: 'baseUrl' } }),
    );
    expect(() => createClient({ ...production, baseUrl: 'https://api.example.com' })).not.toThrow();
    expect(() => createClient({ ...production, baseUrl: 'http://127.0.0.1:4010' })).not.toThrow();
    expect(() => createClient({ ...production, baseUrl: 'http://localhost:4010' })).not.toThrow();
  });

  it('refuses a base URL ending in /v1, and says what to use instead', () => {
    let caught: unknown;
    try {
      createClient({ ...production, baseUrl: 'https://api.example.com/billing/v1/' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'invalid_option' });
    expect((caught as Error).message).toContain('https://api.example.com/billing');
  });
});
