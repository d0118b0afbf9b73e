import {
  createClient,
  DcbApiError,
  type DcbClient,
  DcbClientError,
  DcbResponseError,
  isDcbApiError,
} from '@dcbkit/core';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { paymentFixture, testClientOptions } from './test-support/fixtures.js';
import {
  apiError,
  ok,
  type Route,
  type ScriptedServer,
  startScriptedServer,
} from './test-support/scripted-server.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const GET_PAYMENT = 'GET /v1/payments/pay_1';

async function clientFor(routes: Record<string, Route>): Promise<DcbClient> {
  server = await startScriptedServer(routes);
  return createClient(testClientOptions(server.url, { maxRetries: 0 }).options);
}

const failure = (promise: Promise<unknown>) => promise.catch((error: unknown) => error);

describe('DcbApiError', () => {
  it('carries the code, status, message, retry hints and body of the error envelope', async () => {
    const body = {
      success: false,
      error: { code: 'PAY-101', message: 'Insufficient balance', retryable: true, retryAfterSeconds: 60 },
    };
    const client = await clientFor({ 'POST /v1/payments': { status: 402, json: body } });
    const error = await failure(
      client.payments.create({ mode: 'HOSTED', offerUid: 'off_1', returnUrl: 'https://p.example/r' }),
    );
    expect(error).toBeInstanceOf(DcbApiError);
    expect(error).toBeInstanceOf(DcbClientError);
    expect(error).toMatchObject({
      name: 'DcbApiError',
      code: 'PAY-101',
      httpStatus: 402,
      message: 'Insufficient balance',
      retryable: true,
      retryAfterSeconds: 60,
      body,
      source: 'service',
      method: 'POST',
      path: '/v1/payments',
    });
  });

  it("takes retryAfterSeconds from the Retry-After header when the body has none, and the spec's retryable", async () => {
    const client = await clientFor({
      [GET_PAYMENT]: {
        status: 429,
        json: { success: false, error: { code: 'SEC-001', message: 'slow down' } },
        headers: { 'retry-after': '45' },
      },
    });
    expect(await failure(client.payments.retrieve('pay_1'))).toMatchObject({
      code: 'SEC-001',
      retryable: true,
      retryAfterSeconds: 45,
    });
  });

  it('keeps a code dcbkit does not know yet', async () => {
    const client = await clientFor({ [GET_PAYMENT]: apiError(418, 'NEW-001') });
    expect(await failure(client.payments.retrieve('pay_1'))).toMatchObject({
      code: 'NEW-001',
      retryable: false,
    });
  });

  it('reads an error envelope even under a 2xx status', async () => {
    const client = await clientFor({ [GET_PAYMENT]: apiError(200, 'SUB-101') });
    expect(await failure(client.payments.retrieve('pay_1'))).toMatchObject({
      code: 'SUB-101',
      httpStatus: 200,
    });
  });

  it('lets callers branch on the code, narrowing the type', async () => {
    const client = await clientFor({ [GET_PAYMENT]: apiError(409, 'SUB-105') });
    const error = await failure(client.payments.retrieve('pay_1'));
    expect(isDcbApiError(error)).toBe(true);
    expect(isDcbApiError(error, 'SUB-105')).toBe(true);
    expect(isDcbApiError(error, 'SUB-104')).toBe(false);
    expect(isDcbApiError(new Error('SUB-105'), 'SUB-105')).toBe(false);
    if (isDcbApiError(error, 'SUB-105')) expectTypeOf(error.code).toEqualTypeOf<'SUB-105'>();
    if (error instanceof DcbApiError) {
      expect(error.is('SUB-105')).toBe(true);
      expect(error.is('PAY-104')).toBe(false);
    }
  });
});

describe('DcbResponseError', () => {
  it('is an HTML page from a proxy: not_json, with the status and the text', async () => {
    const client = await clientFor({ [GET_PAYMENT]: { status: 502, text: '<html>Bad Gateway</html>' } });
    const error = await failure(client.payments.retrieve('pay_1'));
    expect(error).toBeInstanceOf(DcbResponseError);
    expect(error).toMatchObject({ reason: 'not_json', httpStatus: 502, body: '<html>Bad Gateway</html>' });
  });

  it('is a 2xx whose data is not the resource: unexpected_shape, never retried', async () => {
    server = await startScriptedServer({ [GET_PAYMENT]: ok({ ...paymentFixture(), status: 'PAID' }) });
    const client = createClient(testClientOptions(server.url).options);
    const error = await failure(client.payments.retrieve('pay_1'));
    expect(error).toBeInstanceOf(DcbResponseError);
    expect(error).toMatchObject({ reason: 'unexpected_shape', httpStatus: 200 });
    expect((error as Error).message).toContain('data.status');
    expect(server.to(GET_PAYMENT)).toHaveLength(1);
  });

  it('is a redirect, which is never followed', async () => {
    const client = await clientFor({
      [GET_PAYMENT]: { status: 307, text: '', headers: { location: 'http://127.0.0.1:9/elsewhere' } },
    });
    expect(await failure(client.payments.retrieve('pay_1'))).toMatchObject({
      reason: 'not_json',
      httpStatus: 307,
    });
    expect(server?.requests.map((r) => r.path)).toEqual(['/oauth2/token', '/v1/payments/pay_1']);
  });
});
