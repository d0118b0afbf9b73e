import { createClient, DcbApiError, DcbError, type LogFields } from '@dcbkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { paymentFixture, SANDBOX_SECRET, testClientOptions } from './test-support/fixtures.js';
import {
  apiError,
  ok,
  type RecordedRequest,
  type Reply,
  type ScriptedServer,
  startScriptedServer,
  tokenReply,
} from './test-support/scripted-server.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(routes: Parameters<typeof startScriptedServer>[0]): Promise<ScriptedServer> {
  server = await startScriptedServer(routes);
  return server;
}

/** Answers the payment only for `Bearer <accepted>`, ATH-002 otherwise. */
function acceptOnly(...accepted: string[]) {
  return (request: RecordedRequest): Reply =>
    accepted.some((token) => request.headers.authorization === `Bearer ${token}`)
      ? ok(paymentFixture())
      : apiError(401, 'ATH-002');
}

const tokensSent = (s: ScriptedServer) =>
  s.to('GET /v1/payments/pay_1').map((request) => request.headers.authorization);

describe('token request', () => {
  it('is a form-encoded client_credentials POST to /oauth2/token, without a bearer token', async () => {
    const s = await serve({ 'GET /v1/payments/pay_1': ok(paymentFixture()) });
    await createClient(testClientOptions(s.url).options).payments.retrieve('pay_1');
    const [tokenRequest] = s.to('POST /oauth2/token');
    expect(tokenRequest?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(tokenRequest?.headers.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(tokenRequest?.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'svc_test_app_1',
      client_secret: SANDBOX_SECRET,
    });
    expect(tokensSent(s)).toEqual(['Bearer tok_1']);
  });

  it('is cached and reused by later calls', async () => {
    const s = await serve({ 'GET /v1/payments/pay_1': ok(paymentFixture()) });
    const client = createClient(testClientOptions(s.url).options);
    for (let i = 0; i < 5; i++) await client.payments.retrieve('pay_1');
    expect(s.to('POST /oauth2/token')).toHaveLength(1);
    expect(new Set(tokensSent(s))).toEqual(new Set(['Bearer tok_1']));
  });

  it('is made once for 1,000 concurrent calls', async () => {
    const s = await serve({ 'GET /v1/payments/pay_1': ok(paymentFixture()) });
    const client = createClient(testClientOptions(s.url).options);
    const calls = Array.from({ length: 1_000 }, () => client.payments.retrieve('pay_1'));
    const payments = await Promise.all(calls);
    expect(payments).toHaveLength(1_000);
    expect(s.to('POST /oauth2/token')).toHaveLength(1);
    expect(s.to('GET /v1/payments/pay_1')).toHaveLength(1_000);
    expect(new Set(tokensSent(s))).toEqual(new Set(['Bearer tok_1']));
  });

  it('is renewed shortly before expiry, on the injected clock', async () => {
    const s = await serve({ 'GET /v1/payments/pay_1': ok(paymentFixture()) });
    let now = Date.parse('2026-11-21T12:00:00Z');
    const client = createClient(testClientOptions(s.url, { now: () => new Date(now) }).options);

    await client.payments.retrieve('pay_1');
    now += 3_500_000; // 100 s left of 3600: still in use
    await client.payments.retrieve('pay_1');
    now += 50_000; // 50 s left: inside the renewal margin
    await client.payments.retrieve('pay_1');
    await client.payments.retrieve('pay_1');

    expect(s.to('POST /oauth2/token')).toHaveLength(2);
    expect(tokensSent(s)).toEqual(['Bearer tok_1', 'Bearer tok_1', 'Bearer tok_2', 'Bearer tok_2']);
  });

  it('keeps using a still-valid token when renewing it fails', async () => {
    const s = await serve({
      'POST /oauth2/token': [tokenReply('tok_1'), { status: 503, text: 'down' }, tokenReply('tok_3')],
      'GET /v1/payments/pay_1': ok(paymentFixture()),
    });
    let now = 0;
    const client = createClient(
      testClientOptions(s.url, { now: () => new Date(now), maxRetries: 0 }).options,
    );
    await client.payments.retrieve('pay_1');
    now = 3_570_000; // inside the margin, not expired
    await client.payments.retrieve('pay_1');
    await client.payments.retrieve('pay_1');
    expect(tokensSent(s)).toEqual(['Bearer tok_1', 'Bearer tok_1', 'Bearer tok_3']);
  });

  it('is never sent once expired: a failed renewal then fails the call', async () => {
    const s = await serve({
      'POST /oauth2/token': [tokenReply('tok_1'), apiError(401, 'ATH-001')],
      'GET /v1/payments/pay_1': ok(paymentFixture()),
    });
    let now = 0;
    const client = createClient(testClientOptions(s.url, { now: () => new Date(now) }).options);
    await client.payments.retrieve('pay_1');
    now = 3_600_000;
    await expect(client.payments.retrieve('pay_1')).rejects.toMatchObject({ code: 'token_refused' });
    expect(tokensSent(s)).toEqual(['Bearer tok_1']);
  });
});

describe('ATH-002 on an API call', () => {
  it('drops the cached token and retries the call once with a new one', async () => {
    const s = await serve({ 'GET /v1/payments/pay_1': acceptOnly('tok_2') });
    const { options, delays } = testClientOptions(s.url);
    const client = createClient(options);
    await expect(client.payments.retrieve('pay_1')).resolves.toMatchObject({ paymentUid: 'pay_01JTEST' });
    expect(tokensSent(s)).toEqual(['Bearer tok_1', 'Bearer tok_2']);
    expect(delays).toEqual([]);
    await client.payments.retrieve('pay_1');
    expect(tokensSent(s)).toEqual(['Bearer tok_1', 'Bearer tok_2', 'Bearer tok_2']);
  });

  it('is thrown when the new token is refused too: only one renewal per call', async () => {
    const s = await serve({ 'GET /v1/payments/pay_1': acceptOnly() });
    const client = createClient(testClientOptions(s.url).options);
    const error = await client.payments.retrieve('pay_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DcbApiError);
    expect(error).toMatchObject({ code: 'ATH-002', httpStatus: 401 });
    expect(s.to('GET /v1/payments/pay_1')).toHaveLength(2);
    expect(s.to('POST /oauth2/token')).toHaveLength(2);
  });

  it('does not drop a newer token another call already fetched', async () => {
    // Call 1 is refused at once and renews to tok_2; call 2, sent with tok_1 too, is refused
    // after that renewal: forgetting tok_1 then must keep tok_2 rather than fetch tok_3.
    const s = await serve({
      'GET /v1/payments/pay_1': (request, nth) => {
        if (request.headers.authorization === 'Bearer tok_2') return ok(paymentFixture());
        return nth === 1 ? apiError(401, 'ATH-002') : { delayMs: 300, answer: apiError(401, 'ATH-002') };
      },
    });
    const client = createClient(testClientOptions(s.url).options);
    await Promise.all([client.payments.retrieve('pay_1'), client.payments.retrieve('pay_1')]);
    expect(s.to('POST /oauth2/token')).toHaveLength(2);
    expect(tokensSent(s).filter((token) => token === 'Bearer tok_2')).toHaveLength(2);
  });
});

describe('a failed token request', () => {
  it('is token_refused with the HTTP status and the service code, for every waiting call', async () => {
    const s = await serve({
      'POST /oauth2/token': apiError(401, 'ATH-001'),
      'GET /v1/payments/pay_1': ok(paymentFixture()),
    });
    const client = createClient(testClientOptions(s.url).options);
    const errors = await Promise.all(
      Array.from({ length: 10 }, () => client.payments.retrieve('pay_1').catch((e: unknown) => e)),
    );
    for (const error of errors) {
      expect(error).toBeInstanceOf(DcbError);
      expect(error).toMatchObject({
        code: 'token_refused',
        httpStatus: 401,
        retryable: false,
        details: { serviceCode: 'ATH-001' },
      });
    }
    expect(s.to('POST /oauth2/token')).toHaveLength(1);
    expect(s.to('GET /v1/payments/pay_1')).toHaveLength(0);
  });

  it('reads an OAuth error body as token_refused, and is not cached: the next call asks again', async () => {
    const s = await serve({
      'POST /oauth2/token': [{ status: 400, json: { error: 'invalid_client' } }, tokenReply('tok_2')],
      'GET /v1/payments/pay_1': ok(paymentFixture()),
    });
    const client = createClient(testClientOptions(s.url).options);
    const error = await client.payments.retrieve('pay_1').catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'token_refused',
      httpStatus: 400,
      details: { oauthError: 'invalid_client' },
    });
    await expect(client.payments.retrieve('pay_1')).resolves.toMatchObject({ object: 'payment' });
    expect(tokensSent(s)).toEqual(['Bearer tok_2']);
  });

  it('is retried when the token endpoint fails on the server side', async () => {
    const s = await serve({
      'POST /oauth2/token': [{ status: 502, text: 'bad gateway' }, { drop: true }, tokenReply('tok_3')],
      'GET /v1/payments/pay_1': ok(paymentFixture()),
    });
    await createClient(testClientOptions(s.url).options).payments.retrieve('pay_1');
    expect(s.to('POST /oauth2/token')).toHaveLength(3);
    expect(tokensSent(s)).toEqual(['Bearer tok_3']);
  });
});

describe('the client secret', () => {
  it('never reaches the logger, nor an error', async () => {
    const s = await serve({
      'POST /oauth2/token': [apiError(401, 'ATH-001'), tokenReply('tok_live_abc')],
      'GET /v1/payments/pay_1': [
        apiError(401, 'ATH-002'),
        apiError(503, 'SYS-001', { retryable: true }),
        ok(paymentFixture()),
      ],
    });
    const lines: string[] = [];
    const record = (fields: LogFields, message: string) => lines.push(JSON.stringify([message, fields]));
    const logger = { debug: record, info: record, warn: record, error: record };
    const client = createClient(testClientOptions(s.url, { logger }).options);
    const tokenError = await client.payments.retrieve('pay_1').catch((e: unknown) => e);
    await client.payments.retrieve('pay_1');

    expect(lines.length).toBeGreaterThan(3);
    const everything = [
      ...lines,
      JSON.stringify(tokenError),
      String(tokenError),
      (tokenError as Error).stack,
    ].join('\n');
    expect(everything).not.toContain(SANDBOX_SECRET);
    expect(everything).not.toContain('tok_live_abc');
    expect(lines.join('\n')).toContain('svc_test_app_1');
  });
});
