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
} from '../test-support/api-client.js';
import { addApplication, startTestSandbox, TEST_START } from '../test-support/sandbox-fixture.js';
import { CheckoutBrowser } from '../testing/checkout-browser.js';

let sandbox: Sandbox;
afterEach(() => sandbox.close());

async function paymentCount(): Promise<number> {
  const answer = await apiGet(sandbox, '/sandbox/payments');
  return (answer.body as { data: unknown[] }).data.length;
}

describe('POST /v1/payments', () => {
  it('creates a REQUIRES_ACTION payment from the offer, with the checkout URL and echoed metadata', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const answer = await createPayment(
      sandbox,
      token,
      paymentBody('offer_premium_monthly', { metadata: { userId: 'user_1', nested: { a: [1, 2] } } }),
    );
    expect(answer.status).toBe(201);
    const payment = dataOf(answer, paymentSchema);
    expect(payment).toEqual({
      object: 'payment',
      paymentUid: expect.stringMatching(/^pay_/),
      mode: 'HOSTED',
      status: 'REQUIRES_ACTION',
      checkoutUrl: `${sandbox.checkoutBaseUrl}/c/${payment.paymentUid}`,
      productUid: 'prod_premium',
      offerUid: 'offer_premium_monthly',
      expiresAt: '2030-01-01T00:30:00.000Z',
      metadata: { userId: 'user_1', nested: { a: [1, 2] } },
    });
    const read = dataOf(await apiGet(sandbox, `/v1/payments/${payment.paymentUid}`, token), paymentSchema);
    expect(read).toEqual(payment);
  });

  it('refuses a missing or badly sized Idempotency-Key (VAL-001, VAL-002)', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const body = paymentBody('offer_day_pass');
    expectApiError(await apiPost(sandbox, '/v1/payments', { token, body }), 'VAL-001');
    expectApiError(await createPayment(sandbox, token, body, 'short77'), 'VAL-002');
    expectApiError(await createPayment(sandbox, token, body, 'k'.repeat(256)), 'VAL-002');
    expect((await createPayment(sandbox, token, body, 'k'.repeat(255))).status).toBe(201);
    expect((await createPayment(sandbox, token, body, 'eight888')).status).toBe(201);
  });

  it('answers VAL-001, VAL-002 and VAL-006 with core’s rules', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const cases: Array<[Record<string, unknown>, 'VAL-001' | 'VAL-002' | 'VAL-006']> = [
      [{ mode: 'HOSTED', returnUrl: 'https://partner.example/r' }, 'VAL-001'],
      [paymentBody('offer_day_pass', { returnUrl: 'not a url' }), 'VAL-002'],
      [paymentBody('offer_day_pass', { returnUrl: 'javascript:alert(1)' }), 'VAL-002'],
      [paymentBody('offer_day_pass', { mode: 'API' }), 'VAL-002'],
      [paymentBody('offer_day_pass', { prefill: { msisdn: '0612' } }), 'VAL-002'],
      [paymentBody('offer_day_pass', { prefill: { msisdnEditable: false } }), 'VAL-001'],
      [
        paymentBody('offer_day_pass', {
          metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])),
        }),
        'VAL-002',
      ],
      [paymentBody('offer_day_pass', { amount: { amount: 1, currency: 'TND' } }), 'VAL-006'],
      [paymentBody('offer_day_pass', { msisdn: '+21620000000' }), 'VAL-006'],
      [paymentBody('offer_day_pass', { productUid: 'prod_day_pass' }), 'VAL-006'],
      [paymentBody('offer_day_pass', { notifyUrl: 'https://partner.example/hook' }), 'VAL-006'],
      [paymentBody('offer_day_pass', { applicationId: 'svc_test_demo' }), 'VAL-006'],
      [paymentBody('offer_day_pass', { prefill: { msisdn: '+21620000000', other: 1 } }), 'VAL-006'],
    ];
    for (const [body, code] of cases) expectApiError(await createPayment(sandbox, token, body), code);
    const notJson = await apiPost(sandbox, '/v1/payments', {
      token,
      rawBody: '{ nope',
      headers: { 'idempotency-key': newIdempotencyKey() },
    });
    expectApiError(notJson, 'VAL-002');
    expect(await paymentCount()).toBe(0);
  });

  it("takes any absolute URI as returnUrl, the spec's `uri`: an app's deep link too", async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    for (const returnUrl of [
      'myapp://done',
      'com.example.app:/billing/done?from=checkout',
      'https://partner.example/r?x=1#top',
      'http://127.0.0.1:3000/return',
    ]) {
      expect((await createPayment(sandbox, token, paymentBody('offer_day_pass', { returnUrl }))).status).toBe(
        201,
      );
    }
    // A deep link is checked like any return URL: the rest of the body still answers for itself.
    expectApiError(
      await createPayment(
        sandbox,
        token,
        paymentBody('offer_day_pass', { returnUrl: 'myapp://done', amount: 1 }),
      ),
      'VAL-006',
    );
    expectApiError(
      await createPayment(sandbox, token, paymentBody('offer_nope', { returnUrl: 'myapp://done' })),
      'CAT-102',
    );
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '/return',
    'return',
    '',
  ])('refuses returnUrl %j with VAL-002: a script scheme, or not absolute', async (returnUrl) => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    expectApiError(
      await createPayment(sandbox, token, paymentBody('offer_day_pass', { returnUrl })),
      'VAL-002',
    );
    expect(await paymentCount()).toBe(0);
  });

  it('refuses an unknown (CAT-102), inactive (CAT-103) or unauthorised (CAT-104) offer', async () => {
    sandbox = await startTestSandbox({
      configure: (config) => {
        const [subscription, dayPass] = config.offers;
        if (subscription) subscription.active = false;
        addApplication(config, 'svc_test_other', ['payments']);
        if (dayPass) dayPass.applications = ['svc_test_other'];
      },
    });
    const token = await getToken(sandbox);
    expectApiError(await createPayment(sandbox, token, paymentBody('offer_nope')), 'CAT-102');
    expectApiError(await createPayment(sandbox, token, paymentBody('offer_premium_monthly')), 'CAT-103');
    expectApiError(await createPayment(sandbox, token, paymentBody('offer_day_pass')), 'CAT-104');
  });

  it('refuses an operator hint the offer is not sold on (SBR-104)', async () => {
    sandbox = await startTestSandbox({
      configure: (config) => {
        const dayPass = config.offers.find((offer) => offer.offerUid === 'offer_day_pass');
        if (dayPass) dayPass.operators = ['SAHEL_MOBILE'];
      },
    });
    const token = await getToken(sandbox);
    expectApiError(
      await createPayment(sandbox, token, paymentBody('offer_day_pass', { operator: 'CARTHAGE_TELECOM' })),
      'SBR-104',
    );
    expectApiError(
      await createPayment(sandbox, token, paymentBody('offer_day_pass', { operator: 'NOPE' })),
      'SBR-104',
    );
    expect(
      (await createPayment(sandbox, token, paymentBody('offer_day_pass', { operator: 'SAHEL_MOBILE' })))
        .status,
    ).toBe(201);
  });

  it('refuses a prefilled number that is invalid (SBR-102), unsupported (SBR-104) or opted out (RSK-101)', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const withNumber = (msisdn: string, extra: Record<string, unknown> = {}) =>
      createPayment(sandbox, token, paymentBody('offer_day_pass', { prefill: { msisdn }, ...extra }));
    expectApiError(await withNumber('+21620000202'), 'SBR-102');
    expectApiError(await withNumber('+2162000000'), 'SBR-102');
    expectApiError(await withNumber('+21670000000'), 'SBR-104');
    expectApiError(await withNumber('+33612345678'), 'SBR-104');
    expectApiError(await withNumber('+21690000000', { operator: 'SAHEL_MOBILE' }), 'SBR-104');
    expectApiError(await withNumber('+21620000301'), 'RSK-101');
    expect((await withNumber('+21620000000')).status).toBe(201);
  });
});

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
    expect(await paymentCount()).toBe(1);
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
    expect(await paymentCount()).toBe(0);
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
    expect(await paymentCount()).toBe(2);
  });

  it('refuses the same key with another payload (PAY-105)', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const key = newIdempotencyKey();
    await createPayment(sandbox, token, paymentBody('offer_day_pass'), key);
    expectApiError(await createPayment(sandbox, token, paymentBody('offer_full_unlock'), key), 'PAY-105');
    expect(await paymentCount()).toBe(1);
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
    expect(await paymentCount()).toBe(1);
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
    expect(await paymentCount()).toBe(2);
  });
});

describe('payment expiry', () => {
  it('is EXPIRED on every read once past expiresAt, and can no longer be completed or cancelled', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const payment = dataOf(await createPayment(sandbox, token, paymentBody('offer_day_pass')), paymentSchema);
    expect(payment.expiresAt).toBe(new Date(Date.parse(TEST_START) + 1800_000).toISOString());
    const browser = new CheckoutBrowser(sandbox.checkoutBaseUrl);
    const numberStep = await browser.open(payment.checkoutUrl);
    await sandbox.clock.advance(1800);
    expect(
      dataOf(await apiGet(sandbox, `/v1/payments/${payment.paymentUid}`, token), paymentSchema).status,
    ).toBe('REQUIRES_ACTION');
    await sandbox.clock.advance(1);
    for (let read = 0; read < 2; read++) {
      expect(
        dataOf(await apiGet(sandbox, `/v1/payments/${payment.paymentUid}`, token), paymentSchema).status,
      ).toBe('EXPIRED');
    }
    const afterSubmit = await browser.submit(numberStep, '/number', {
      msisdn: '+21620000000',
      network: 'WIFI',
    });
    expect(afterSubmit.html).toContain('This payment session has expired');
    expect(afterSubmit.forms.some((form) => form.action.endsWith('/number'))).toBe(false);
    expectApiError(await apiPost(sandbox, `/v1/payments/${payment.paymentUid}/cancel`, { token }), 'PAY-106');
    expect(sandbox.sms()).toHaveLength(0);
  });
});

describe('POST /v1/payments/{paymentUid}/cancel', () => {
  it('cancels while REQUIRES_ACTION, then answers 409 PAY-106', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const payment = dataOf(await createPayment(sandbox, token, paymentBody('offer_day_pass')), paymentSchema);
    const canceled = await apiPost(sandbox, `/v1/payments/${payment.paymentUid}/cancel`, { token });
    expect(canceled.status).toBe(200);
    expect(dataOf(canceled, paymentSchema)).toMatchObject({
      object: 'payment',
      paymentUid: payment.paymentUid,
      status: 'CANCELED',
    });
    expectApiError(await apiPost(sandbox, `/v1/payments/${payment.paymentUid}/cancel`, { token }), 'PAY-106');
    const page = await new CheckoutBrowser(sandbox.checkoutBaseUrl).open(payment.checkoutUrl);
    expect(page.html).toContain('This payment was cancelled');
  });

  it('never cancels a SUCCEEDED payment', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const payment = dataOf(
      await createPayment(
        sandbox,
        token,
        paymentBody('offer_day_pass', { prefill: { msisdn: '+21690000000' } }),
      ),
      paymentSchema,
    );
    const browser = new CheckoutBrowser(sandbox.checkoutBaseUrl);
    const consent = await browser.submit(await browser.open(payment.checkoutUrl), '/number', {
      network: 'MOBILE_DATA',
    });
    const done = await browser.submit(consent, '/consent/header-enrichment');
    expect(done.leftTo).toContain('status=SUCCEEDED');
    expectApiError(await apiPost(sandbox, `/v1/payments/${payment.paymentUid}/cancel`, { token }), 'PAY-106');
  });

  it('answers PAY-107 for an unknown payment, SUB-101 for an unknown subscription', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    expectApiError(await apiGet(sandbox, '/v1/payments/pay_unknown', token), 'PAY-107');
    expectApiError(await apiPost(sandbox, '/v1/payments/pay_unknown/cancel', { token }), 'PAY-107');
    expectApiError(await apiGet(sandbox, '/v1/subscriptions/subs_unknown', token), 'SUB-101');
  });
});
