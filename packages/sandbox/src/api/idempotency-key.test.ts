import { paymentSchema } from '@dcbkit/core/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../start/start-sandbox.js';
import {
  apiGet,
  apiPost,
  createPayment,
  dataOf,
  expectApiError,
  getToken,
  newIdempotencyKey,
  paymentBody,
  paymentCount,
} from '../test-support/api-client.js';
import { addApplication, startTestSandbox } from '../test-support/sandbox-fixture.js';

let sandbox: Sandbox;
afterEach(() => sandbox.close());

describe('Idempotency-Key', () => {
  it('replays the original response within 24 hours and creates nothing', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const key = newIdempotencyKey();
    const first = await createPayment(
      sandbox,
      token,
      paymentBody('offer_day_pass', { metadata: { a: 1, b: 2 } }),
      key,
    );
    await sandbox.clock.advance(23 * 3600);
    const replay = await apiPost(sandbox, '/v1/payments', {
      token: await getToken(sandbox),
      // Same payload, other key order and spacing.
      rawBody: ` { "metadata": {"b":2,"a":1}, "returnUrl": "https://partner.example/return", "offerUid": "offer_day_pass", "mode": "HOSTED" }`,
      headers: { 'idempotency-key': key },
    });
    expect(replay.status).toBe(first.status);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await paymentCount(sandbox)).toBe(1);
  });

  it('refuses metadata nested thousands deep as VAL-002; a retry with the same key creates nothing', async () => {
    sandbox = await startTestSandbox();
    let deep = '{}';
    for (let i = 0; i < 3_000; i++) deep = `{"inner":${deep}}`;
    const rawBody = `{"mode":"HOSTED","offerUid":"offer_day_pass","returnUrl":"https://partner.example/return","metadata":${deep}}`;
    const key = newIdempotencyKey();
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await apiPost(sandbox, '/v1/payments', {
        token: await getToken(sandbox),
        rawBody,
        headers: { 'idempotency-key': key },
      });
      expectApiError(answer, 'VAL-002');
    }
    expect(await paymentCount(sandbox)).toBe(0);
    expect((await apiGet(sandbox, '/sandbox/payments')).status).toBe(200);
  });

  it('creates anew once the 24 hours have passed', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const key = newIdempotencyKey();
    const first = await createPayment(sandbox, token, paymentBody('offer_day_pass'), key);
    await sandbox.clock.advance(24 * 3600);
    const later = await createPayment(sandbox, await getToken(sandbox), paymentBody('offer_day_pass'), key);
    expect(dataOf(later, paymentSchema).paymentUid).not.toBe(dataOf(first, paymentSchema).paymentUid);
    expect(await paymentCount(sandbox)).toBe(2);
  });

  it('refuses the same key with another payload (PAY-105)', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const key = newIdempotencyKey();
    await createPayment(sandbox, token, paymentBody('offer_day_pass'), key);
    expectApiError(await createPayment(sandbox, token, paymentBody('offer_full_unlock'), key), 'PAY-105');
    expect(await paymentCount(sandbox)).toBe(1);
  });

  it('refuses the same key while the first request is still in progress (PAY-104, retryable)', async () => {
    let entered: () => void = () => {};
    const firstEntered = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holds = 0;
    sandbox = await startTestSandbox({
      holdPaymentCreation: async () => {
        holds++;
        if (holds === 1) {
          entered();
          await released;
        }
      },
    });
    const token = await getToken(sandbox);
    const key = newIdempotencyKey();
    const first = createPayment(sandbox, token, paymentBody('offer_day_pass'), key);
    await firstEntered;
    const second = await createPayment(sandbox, token, paymentBody('offer_day_pass'), key);
    const error = expectApiError(second, 'PAY-104');
    expect(error.retryable).toBe(true);
    expect(second.headers.get('retry-after')).toBe(String(error.retryAfterSeconds));
    release();
    expect((await first).status).toBe(201);
    const retried = await createPayment(sandbox, token, paymentBody('offer_day_pass'), key);
    expect(retried.text).toBe((await first).text);
    expect(await paymentCount(sandbox)).toBe(1);
  });

  it('frees the key of a refused request, and keeps keys apart per application', async () => {
    let other = { clientId: '', clientSecret: '' };
    sandbox = await startTestSandbox({
      configure: (config) => {
        other = addApplication(config, 'svc_test_other', ['payments']);
      },
    });
    const token = await getToken(sandbox);
    const key = newIdempotencyKey();
    expectApiError(await createPayment(sandbox, token, paymentBody('offer_nope'), key), 'CAT-102');
    expect((await createPayment(sandbox, token, paymentBody('offer_day_pass'), key)).status).toBe(201);
    const otherToken = await getToken(sandbox, other.clientId, other.clientSecret);
    expect((await createPayment(sandbox, otherToken, paymentBody('offer_full_unlock'), key)).status).toBe(
      201,
    );
    expect(await paymentCount(sandbox)).toBe(2);
  });
});
