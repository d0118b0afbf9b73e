import { createClient, DcbApiError, type DcbClient, DcbError, isDcbApiError } from '@dcbkit/core';
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
    expect(error).toBeInstanceOf(DcbError);
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

  it('takes retryAfterSeconds from the Retry-After header when the body has none; retryable only when the body says so', async () => {
    const client = await clientFor({
      [GET_PAYMENT]: {
        status: 429,
        json: { success: false, error: { code: 'SEC-001', message: 'slow down' } },
        headers: { 'retry-after': '45' },
      },
    });
    expect(await failure(client.payments.retrieve('pay_1'))).toMatchObject({
      code: 'SEC-001',
      retryable: false,
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

describe("answers that are not the service's", () => {
  it('is an HTML page from a proxy: unexpected_response (an outage), with the status and the text', async () => {
    const client = await clientFor({ [GET_PAYMENT]: { status: 502, text: '<html>Bad Gateway</html>' } });
    const error = await failure(client.payments.retrieve('pay_1'));
    expect(error).toBeInstanceOf(DcbError);
    expect(error).toMatchObject({
      code: 'unexpected_response',
      httpStatus: 502,
      details: { body: '<html>Bad Gateway</html>' },
    });
  });

  it('is a 404 page of another server: wrong_base_url, never retried', async () => {
    const client = await clientFor({ [GET_PAYMENT]: { status: 404, text: '<html>Not Found</html>' } });
    const error = await failure(client.payments.retrieve('pay_1'));
    expect(error).toMatchObject({ code: 'wrong_base_url', httpStatus: 404 });
    expect((error as Error).message).toContain('base URL');
  });

  it('is a 2xx whose data is not the resource: unexpected_shape, never retried', async () => {
    server = await startScriptedServer({ [GET_PAYMENT]: ok({ ...paymentFixture(), status: 'PAID' }) });
    const client = createClient(testClientOptions(server.url).options);
    const error = await failure(client.payments.retrieve('pay_1'));
    expect(error).toBeInstanceOf(DcbError);
    expect(error).toMatchObject({ code: 'unexpected_response', httpStatus: 200 });
    expect((error as Error).message).toContain('data.status');
    expect(server.to(GET_PAYMENT)).toHaveLength(1);
  });

  it('is a redirect, which is never followed', async () => {
    const client = await clientFor({
      [GET_PAYMENT]: { status: 307, text: '', headers: { location: 'http://127.0.0.1:9/elsewhere' } },
    });
    expect(await failure(client.payments.retrieve('pay_1'))).toMatchObject({
      code: 'wrong_base_url',
      httpStatus: 307,
    });
    expect(server?.requests.map((r) => r.path)).toEqual(['/oauth2/token', '/v1/payments/pay_1']);
  });
});
