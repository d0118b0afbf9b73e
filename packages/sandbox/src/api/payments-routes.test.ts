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
import { addApplication, startTestSandbox, TEST_START } from '../test-support/sandbox-fixture.js';
import { CheckoutBrowser } from '../testing/checkout-browser.js';

let sandbox: Sandbox;
afterEach(() => sandbox.close());

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
    expect(await paymentCount(sandbox)).toBe(0);
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
    expect(await paymentCount(sandbox)).toBe(0);
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
