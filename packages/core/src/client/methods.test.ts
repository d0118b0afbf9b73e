import { createClient, DcbApiError, type DcbClient } from '@dcbkit/core';
import { isValidIdempotencyKey } from '@dcbkit/core/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CREATE_PARAMS,
  capabilitiesFixture,
  paymentFixture,
  subscriptionFixture,
  testClientOptions,
} from './test-support/fixtures.js';
import { ok, type ScriptedServer, startScriptedServer } from './test-support/scripted-server.js';

const payment = paymentFixture();
const preCanceled = subscriptionFixture({ status: 'PRE_CANCELED', cancelAt: '2026-12-21T12:00:00Z' });

let server: ScriptedServer;
let client: DcbClient;

beforeEach(async () => {
  server = await startScriptedServer({
    'POST /v1/payments': ok({ ...payment, futureField: 'ignored' }, 201),
    'GET /v1/payments/pay_01JTEST': ok(paymentFixture({ status: 'SUCCEEDED', orderId: 'ord_1' })),
    'GET /v1/payments/pay_a/b': ok(payment),
    'POST /v1/payments/pay_01JTEST/cancel': ok({
      object: 'payment',
      paymentUid: 'pay_01JTEST',
      status: 'CANCELED',
    }),
    'GET /v1/subscriptions/sub_01JTEST': ok(subscriptionFixture()),
    'POST /v1/subscriptions/sub_01JTEST/cancel': ok(preCanceled),
    'POST /v1/subscriptions/sub_01JTEST/resume': ok(subscriptionFixture()),
    'GET /v1/capabilities': (request) =>
      request.query.has('operator')
        ? ok(capabilitiesFixture())
        : ok([
            capabilitiesFixture(),
            capabilitiesFixture({ operator: 'OOREDOO_TN', consentMethods: ['MO_SMS'] }),
          ]),
  });
  client = createClient(testClientOptions(server.url).options);
});
afterEach(() => server.close());

const only = (route: string) => {
  const requests = server.to(route);
  expect(requests).toHaveLength(1);
  return requests[0] as NonNullable<(typeof requests)[0]>;
};

/** Runs `call`, expects a client-side DcbApiError, and checks that nothing but nothing was sent. */
async function refusedLocally(call: () => Promise<unknown>): Promise<DcbApiError> {
  const error = await call().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DcbApiError);
  expect(server.requests).toHaveLength(0);
  const apiError = error as DcbApiError;
  expect(apiError.source).toBe('client');
  expect(apiError.body).toBeUndefined();
  return apiError;
}

describe('payments.create', () => {
  it('posts the JSON body with a bearer token and an idempotency key, and returns the typed payment', async () => {
    const created = await client.payments.create({ ...CREATE_PARAMS, metadata: { userId: 'u_42' } });
    expect(created).toEqual(payment);
    const request = only('POST /v1/payments');
    expect(request.headers.authorization).toBe('Bearer tok_1');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({ ...CREATE_PARAMS, metadata: { userId: 'u_42' } });
    expect(isValidIdempotencyKey(request.headers['idempotency-key'])).toBe(true);
  });

  it('makes a new key for each call when none is given', async () => {
    await client.payments.create(CREATE_PARAMS);
    await client.payments.create(CREATE_PARAMS);
    const keys = server.to('POST /v1/payments').map((r) => r.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(2);
  });

  it("sends the caller's idempotency key", async () => {
    await client.payments.create(CREATE_PARAMS, { idempotencyKey: 'order-2026-000042' });
    expect(only('POST /v1/payments').headers['idempotency-key']).toBe('order-2026-000042');
  });

  it.each([
    ['amount', { amount: { amount: 1000, currency: 'TND' } }],
    ['msisdn', { msisdn: '+21620000000' }],
    ['productUid', { productUid: 'prod_premium' }],
    ['notifyUrl', { notifyUrl: 'https://partner.example/hook' }],
    ['userId', { userId: 'u_42' }],
    ['prefill.phone', { prefill: { phone: '+21620000000' } }],
  ])('refuses the forbidden or unknown property %s with VAL-006, before sending', async (path, extra) => {
    const error = await refusedLocally(() => client.payments.create({ ...CREATE_PARAMS, ...extra } as never));
    expect(error.code).toBe('VAL-006');
    expect(error.httpStatus).toBe(400);
    expect(error.issues.map((issue) => issue.path)).toContain(path);
  });

  it('refuses a missing field with VAL-001 and an invalid one with VAL-002, before sending', async () => {
    const { returnUrl: _, ...withoutReturnUrl } = CREATE_PARAMS;
    expect((await refusedLocally(() => client.payments.create(withoutReturnUrl as never))).code).toBe(
      'VAL-001',
    );
    const invalid = { ...CREATE_PARAMS, returnUrl: 'javascript:alert(1)' };
    expect((await refusedLocally(() => client.payments.create(invalid))).code).toBe('VAL-002');
    const locked = { ...CREATE_PARAMS, prefill: { msisdnEditable: false } };
    expect((await refusedLocally(() => client.payments.create(locked))).issues[0]).toMatchObject({
      code: 'VAL-001',
      path: 'prefill.msisdn',
    });
  });

  it.each(['short', 'k'.repeat(256), 42])('refuses the idempotency key %j before sending', async (key) => {
    const error = await refusedLocally(() =>
      client.payments.create(CREATE_PARAMS, { idempotencyKey: key as string }),
    );
    expect(error.code).toBe('VAL-002');
    expect(error.issues[0]?.path).toBe('idempotencyKey');
  });
});

describe('payments.retrieve and payments.cancel', () => {
  it('reads a payment', async () => {
    await expect(client.payments.retrieve('pay_01JTEST')).resolves.toMatchObject({
      status: 'SUCCEEDED',
      orderId: 'ord_1',
    });
    expect(only('GET /v1/payments/pay_01JTEST').body).toBe('');
  });

  it('escapes the identifier into one path segment', async () => {
    await expect(client.payments.retrieve('pay_a/b')).rejects.toMatchObject({ httpStatus: 404 });
    expect(server.requests.at(-1)?.path).toBe('/v1/payments/pay_a%2Fb');
  });

  it.each([
    ['', 'VAL-001'],
    [undefined, 'VAL-001'],
    [42, 'VAL-002'],
    ['..', 'VAL-002'],
  ])('refuses the identifier %j before sending', async (uid, code) => {
    const error = await refusedLocally(() => client.payments.retrieve(uid as string));
    expect(error).toMatchObject({ code, path: '/v1/payments/{paymentUid}' });
    expect((await refusedLocally(() => client.payments.cancel(uid as string))).code).toBe(code);
  });

  it('cancels with an empty POST and reads the short cancel answer', async () => {
    await expect(client.payments.cancel('pay_01JTEST')).resolves.toEqual({
      object: 'payment',
      paymentUid: 'pay_01JTEST',
      status: 'CANCELED',
    });
    const request = only('POST /v1/payments/pay_01JTEST/cancel');
    expect(request.body).toBe('');
    expect(request.headers['idempotency-key']).toBeUndefined();
  });
});

describe('subscriptions', () => {
  it('retrieves', async () => {
    await expect(client.subscriptions.retrieve('sub_01JTEST')).resolves.toEqual(subscriptionFixture());
  });

  it.each(['NOW', 'PERIOD_END'] as const)('cancels with when=%s as the only body property', async (when) => {
    await expect(client.subscriptions.cancel('sub_01JTEST', { when })).resolves.toEqual(preCanceled);
    const request = only('POST /v1/subscriptions/sub_01JTEST/cancel');
    expect(JSON.parse(request.body)).toEqual({ when });
    expect(request.headers['content-type']).toBe('application/json');
  });

  it('refuses a bad cancel request before sending', async () => {
    const cancel = (body: unknown) =>
      refusedLocally(() => client.subscriptions.cancel('sub_01JTEST', body as never));
    expect((await cancel({})).code).toBe('VAL-001');
    expect((await cancel({ when: 'LATER' })).code).toBe('VAL-002');
    expect((await cancel({ when: 'NOW', refund: true })).issues[0]).toMatchObject({
      code: 'VAL-006',
      path: 'refund',
    });
    expect((await cancel(undefined)).code).toBe('VAL-001');
  });

  it('resumes with an empty POST', async () => {
    await expect(client.subscriptions.resume('sub_01JTEST')).resolves.toMatchObject({
      status: 'ACTIVE',
      cancelAt: null,
    });
    expect(only('POST /v1/subscriptions/sub_01JTEST/resume').body).toBe('');
  });
});

describe('capabilities.retrieve', () => {
  it('sends countryCode and operator as query parameters and returns a list of one', async () => {
    const result = await client.capabilities.retrieve({ countryCode: 'TN', operator: 'ORANGE_TN' });
    expect(result).toEqual([capabilitiesFixture()]);
    expect(Object.fromEntries(only('GET /v1/capabilities').query)).toEqual({
      countryCode: 'TN',
      operator: 'ORANGE_TN',
    });
  });

  it('returns every operator of the country without operator', async () => {
    const result = await client.capabilities.retrieve({ countryCode: 'TN' });
    expect(result.map((c) => c.operator)).toEqual(['ORANGE_TN', 'OOREDOO_TN']);
    expect(Object.fromEntries(only('GET /v1/capabilities').query)).toEqual({ countryCode: 'TN' });
  });

  it('refuses a bad query before sending', async () => {
    expect((await refusedLocally(() => client.capabilities.retrieve({ countryCode: 'tunisia' }))).code).toBe(
      'VAL-002',
    );
    expect((await refusedLocally(() => client.capabilities.retrieve({} as never))).code).toBe('VAL-001');
  });
});
