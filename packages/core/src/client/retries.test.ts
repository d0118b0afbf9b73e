import {
  type CreateClientOptions,
  createClient,
  DcbApiError,
  DcbError,
  type DcbErrorCode,
} from '@dcbkit/core';
import { SERVICE_ERROR_CODES } from '@dcbkit/core/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import { BASE_BACKOFF_MS } from './retry-policy.js';
import {
  CREATE_PARAMS,
  paymentFixture,
  subscriptionFixture,
  testClientOptions,
} from './test-support/fixtures.js';
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
const CREATE = 'POST /v1/payments';
const CANCEL_SUBSCRIPTION = 'POST /v1/subscriptions/sub_1/cancel';
const RESUME = 'POST /v1/subscriptions/sub_1/resume';

async function setUp(routes: Record<string, Route>, overrides: Partial<CreateClientOptions> = {}) {
  server = await startScriptedServer(routes);
  const { options, delays } = testClientOptions(server.url, overrides);
  return { s: server, client: createClient(options), delays };
}

const failure = (promise: Promise<unknown>) => promise.catch((error: unknown) => error);
const keysOf = (s: ScriptedServer) => s.to(CREATE).map((request) => request.headers['idempotency-key']);
const SLOW = 60_000;

describe('retryable errors', () => {
  it('429 SEC-001 with retryable: true is retried after its Retry-After header', async () => {
    const { s, client, delays } = await setUp({
      [GET_PAYMENT]: [
        apiError(429, 'SEC-001', { retryable: true, headers: { 'retry-after': '2' } }),
        ok(paymentFixture()),
      ],
    });
    await expect(client.payments.retrieve('pay_1')).resolves.toMatchObject({ object: 'payment' });
    expect(s.to(GET_PAYMENT)).toHaveLength(2);
    expect(delays).toEqual([2_000]);
  });

  it("prefers the body's retryAfterSeconds, and retries a retryable error whatever the method", async () => {
    const { s, client, delays } = await setUp({
      [CANCEL_SUBSCRIPTION]: [
        apiError(429, 'SEC-001', { retryable: true, retryAfterSeconds: 3, headers: { 'retry-after': '2' } }),
        ok(subscriptionFixture()),
      ],
    });
    await client.subscriptions.cancel('sub_1', { when: 'NOW' });
    expect(s.to(CANCEL_SUBSCRIPTION)).toHaveLength(2);
    expect(delays).toEqual([3_000]);
  });

  it('does not wait a suggested delay above maxRetryDelayMs: the error comes back with it', async () => {
    const { s, client, delays } = await setUp(
      { [GET_PAYMENT]: apiError(429, 'SEC-001', { retryable: true, retryAfterSeconds: 30 }) },
      { maxRetryDelayMs: 5_000 },
    );
    const error = await failure(client.payments.retrieve('pay_1'));
    expect(error).toBeInstanceOf(DcbApiError);
    expect(error).toMatchObject({ code: 'SEC-001', httpStatus: 429, retryable: true, retryAfterSeconds: 30 });
    expect(s.to(GET_PAYMENT)).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('PAY-104 is retried with the same Idempotency-Key after a short delay', async () => {
    const { s, client, delays } = await setUp({
      [CREATE]: [
        apiError(409, 'PAY-104', { retryable: true }),
        apiError(409, 'PAY-104', { retryable: true }),
        ok(paymentFixture(), 201),
      ],
    });
    await expect(client.payments.create(CREATE_PARAMS)).resolves.toMatchObject({ status: 'REQUIRES_ACTION' });
    expect(keysOf(s)).toHaveLength(3);
    expect(new Set(keysOf(s)).size).toBe(1);
    expect(delays).toHaveLength(2);
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(2 * BASE_BACKOFF_MS);
  });

  it.each(['PAY-101', 'PAY-103'] as const)('%s, retryable in the spec, is retried', async (code) => {
    const { s, client } = await setUp({
      [CREATE]: [apiError(402, code, { retryable: true, retryAfterSeconds: 1 }), ok(paymentFixture(), 201)],
    });
    await client.payments.create(CREATE_PARAMS);
    expect(s.to(CREATE)).toHaveLength(2);
  });

  it('stops after maxRetries and throws the last error', async () => {
    const { s, client, delays } = await setUp(
      { [GET_PAYMENT]: apiError(429, 'SEC-001', { retryable: true, retryAfterSeconds: 1 }) },
      { maxRetries: 2 },
    );
    expect(await failure(client.payments.retrieve('pay_1'))).toMatchObject({ code: 'SEC-001' });
    expect(s.to(GET_PAYMENT)).toHaveLength(3);
    expect(delays).toEqual([1_000, 1_000]);
  });
});

describe('only retryable: true is retried', () => {
  // The spec: "clients retry only when retryable is true". Before, a missing `retryable` counted as
  // true for the table's retryable codes, and 5xx envelopes were retried on GETs and creates.
  it.each([
    [429, 'SEC-001', GET_PAYMENT],
    [402, 'PAY-101', CREATE],
    [402, 'PAY-103', CREATE],
    [409, 'PAY-104', CREATE],
    [500, 'SYS-001', GET_PAYMENT],
    [503, 'SYS-002', CREATE],
  ] as const)('HTTP %i %s without retryable is thrown after one request', async (status, code, route) => {
    const { s, client, delays } = await setUp({ [route]: apiError(status, code, { retryAfterSeconds: 1 }) });
    const call = route === CREATE ? client.payments.create(CREATE_PARAMS) : client.payments.retrieve('pay_1');
    expect(await failure(call)).toMatchObject({ code, httpStatus: status, retryable: false });
    expect(s.to(route)).toHaveLength(1);
    expect(delays).toEqual([]);
  });
});

describe('no retry of any other 4xx', () => {
  const notRetryable = (
    Object.entries(SERVICE_ERROR_CODES) as [
      DcbErrorCode<'service'>,
      { httpStatus: number; retryable?: boolean },
    ][]
  )
    .filter(([code, entry]) => entry.httpStatus < 500 && entry.retryable !== true && code !== 'ATH-002')
    .map(([code, entry]) => [code, entry.httpStatus] as const);

  it('covers every VAL-* and CAT-* code', () => {
    const codes = notRetryable.map(([code]) => code);
    for (const code of ['VAL-001', 'VAL-002', 'VAL-006', 'CAT-102', 'CAT-103', 'CAT-104', 'CAT-109']) {
      expect(codes).toContain(code);
    }
  });

  it.each(notRetryable)(
    '%s (HTTP %i) is thrown after one request, even on a safe create',
    async (code, status) => {
      const { s, client, delays } = await setUp({ [CREATE]: apiError(status, code) });
      const error = await failure(client.payments.create(CREATE_PARAMS));
      expect(error).toBeInstanceOf(DcbApiError);
      expect(error).toMatchObject({ code, httpStatus: status, retryable: false, source: 'service' });
      expect(s.to(CREATE)).toHaveLength(1);
      expect(delays).toEqual([]);
    },
  );
});

describe('server errors', () => {
  it('a GET is retried after outage pages that are not the service envelope, with growing backoff', async () => {
    const { s, client, delays } = await setUp({
      [GET_PAYMENT]: [
        { status: 502, text: 'bad gateway' },
        { status: 503, text: 'upstream unavailable' },
        ok(paymentFixture()),
      ],
    });
    await expect(client.payments.retrieve('pay_1')).resolves.toMatchObject({ object: 'payment' });
    expect(s.to(GET_PAYMENT)).toHaveLength(3);
    expect(delays[0]).toBeGreaterThanOrEqual(BASE_BACKOFF_MS / 2);
    expect(delays[0]).toBeLessThanOrEqual(BASE_BACKOFF_MS);
    expect(delays[1]).toBeGreaterThanOrEqual(BASE_BACKOFF_MS);
    expect(delays[1]).toBeLessThanOrEqual(2 * BASE_BACKOFF_MS);
  });

  it('the create is retried after a 500 that says retryable, with the same key', async () => {
    const { s, client } = await setUp({
      [CREATE]: [apiError(500, 'SYS-001', { retryable: true }), ok(paymentFixture(), 201)],
    });
    await client.payments.create(CREATE_PARAMS, { idempotencyKey: 'order-000042' });
    expect(keysOf(s)).toEqual(['order-000042', 'order-000042']);
  });

  it.each([
    ['subscriptions.cancel', CANCEL_SUBSCRIPTION],
    ['subscriptions.resume', RESUME],
    ['payments.cancel', 'POST /v1/payments/pay_1/cancel'],
  ])('%s is not repeated after a 500', async (_name, route) => {
    const { s, client } = await setUp({ [route]: apiError(500, 'SYS-001') });
    const calls = {
      [CANCEL_SUBSCRIPTION]: () => client.subscriptions.cancel('sub_1', { when: 'PERIOD_END' }),
      [RESUME]: () => client.subscriptions.resume('sub_1'),
      'POST /v1/payments/pay_1/cancel': () => client.payments.cancel('pay_1'),
    } as Record<string, () => Promise<unknown>>;
    expect(await failure((calls[route] as () => Promise<unknown>)())).toMatchObject({
      code: 'SYS-001',
      httpStatus: 500,
    });
    expect(s.to(route)).toHaveLength(1);
  });

  it('an explicit retryable: false is obeyed on a 503', async () => {
    const { s, client } = await setUp({ [GET_PAYMENT]: apiError(503, 'SYS-002', { retryable: false }) });
    expect(await failure(client.payments.retrieve('pay_1'))).toMatchObject({
      code: 'SYS-002',
      retryable: false,
    });
    expect(s.to(GET_PAYMENT)).toHaveLength(1);
  });
});

describe('dropped connections', () => {
  it('a GET is retried', async () => {
    const { s, client } = await setUp({ [GET_PAYMENT]: [{ drop: true }, ok(paymentFixture())] });
    await expect(client.payments.retrieve('pay_1')).resolves.toMatchObject({ object: 'payment' });
    expect(s.to(GET_PAYMENT)).toHaveLength(2);
  });

  it('a non-idempotent POST is not, and the error says the connection failed', async () => {
    const { s, client } = await setUp({ [RESUME]: { drop: true } });
    const error = await failure(client.subscriptions.resume('sub_1'));
    expect(error).toBeInstanceOf(DcbError);
    expect(error).toMatchObject({
      code: 'service_unreachable',
      details: { method: 'POST', path: '/v1/subscriptions/sub_1/resume' },
    });
    expect(s.to(RESUME)).toHaveLength(1);
  });

  it('a create is retried with the same Idempotency-Key through every kind of failure', async () => {
    const { s, client } = await setUp({
      [CREATE]: [
        { drop: true },
        { status: 502, text: 'bad gateway' },
        apiError(409, 'PAY-104', { retryable: true }),
        ok(paymentFixture(), 201),
      ],
    });
    await expect(client.payments.create(CREATE_PARAMS)).resolves.toMatchObject({ object: 'payment' });
    expect(keysOf(s)).toHaveLength(4);
    expect(new Set(keysOf(s)).size).toBe(1);
    expect(new Set(s.to(CREATE).map((request) => request.body)).size).toBe(1);
  });
});

describe('slow answers', () => {
  it('time out as DcbError `timeout`, and a GET is retried', async () => {
    const { s, client } = await setUp(
      { [GET_PAYMENT]: [{ delayMs: SLOW, answer: ok(paymentFixture()) }, ok(paymentFixture())] },
      { timeoutMs: 200 },
    );
    await expect(client.payments.retrieve('pay_1')).resolves.toMatchObject({ object: 'payment' });
    expect(s.to(GET_PAYMENT)).toHaveLength(2);
  });

  it('a non-idempotent POST is not repeated after a timeout', async () => {
    const { s, client } = await setUp(
      { [RESUME]: { delayMs: SLOW, answer: ok(subscriptionFixture()) } },
      { timeoutMs: 200 },
    );
    const error = await failure(client.subscriptions.resume('sub_1'));
    expect(error).toBeInstanceOf(DcbError);
    expect(error).toMatchObject({ code: 'timeout' });
    expect((error as Error).message).toContain('200 ms');
    expect(s.to(RESUME)).toHaveLength(1);
  });

  it('a create times out at most maxRetries + 1 times, always with one key', async () => {
    const { s, client } = await setUp(
      { [CREATE]: { delayMs: SLOW, answer: ok(paymentFixture(), 201) } },
      { timeoutMs: 100, maxRetries: 2 },
    );
    expect(await failure(client.payments.create(CREATE_PARAMS))).toMatchObject({ code: 'timeout' });
    expect(keysOf(s)).toHaveLength(3);
    expect(new Set(keysOf(s)).size).toBe(1);
  });
});
