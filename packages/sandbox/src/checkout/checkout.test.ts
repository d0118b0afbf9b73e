import type { Payment, WebhookEvent } from '@dcbkit/core';
import { paymentSchema, subscriptionSchema } from '@dcbkit/core/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxConfig } from '../config/config-schema.js';
import type { Sandbox } from '../start/start-sandbox.js';
import { apiGet, createPayment, dataOf, getToken, paymentBody } from '../test-support/api-client.js';
import { addApplication, startTestSandbox } from '../test-support/sandbox-fixture.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver.js';
import { type BrowserPage, CheckoutBrowser } from '../testing/checkout-browser.js';

let sandbox: Sandbox;
let receiver: WebhookReceiver;
let token: string;

afterEach(async () => {
  await sandbox.close();
  await receiver.close();
});

async function start(configure?: (config: SandboxConfig) => void): Promise<void> {
  receiver = await startWebhookReceiver();
  sandbox = await startTestSandbox({ webhookUrl: receiver.url, ...(configure ? { configure } : {}) });
  token = await getToken(sandbox);
}

async function newPayment(offerUid: string, extra: Record<string, unknown> = {}): Promise<Payment> {
  const answer = await createPayment(
    sandbox,
    token,
    paymentBody(offerUid, { metadata: { userId: 'user_42' }, ...extra }),
  );
  expect(answer.status).toBe(201);
  return dataOf(answer, paymentSchema);
}

async function readPayment(paymentUid: string): Promise<Payment> {
  return dataOf(await apiGet(sandbox, `/v1/payments/${paymentUid}`, token), paymentSchema);
}

/** The latest PIN the mock operator texted for a payment. */
function latestPin(paymentUid: string): string {
  const [latest] = sandbox.sms({ paymentUid }).filter((message) => message.direction === 'MT');
  const code = latest?.text.match(/^[0-9]+/)?.[0];
  if (!code) throw new Error(`No PIN was sent for ${paymentUid}`);
  return code;
}

/** Every webhook received so far, verified with core's verifyWebhook. */
async function deliveredEvents(): Promise<WebhookEvent[]> {
  await sandbox.deliverDue();
  return receiver.verifiedEvents(sandbox.credentials.webhookSecret);
}

function returnParams(page: BrowserPage): Record<string, string> {
  if (!page.leftTo) throw new Error(`The checkout did not send the browser back; it shows ${page.url}`);
  const url = new URL(page.leftTo);
  expect(`${url.origin}${url.pathname}`).toBe('https://partner.example/return');
  return Object.fromEntries(url.searchParams);
}

async function enterNumber(
  payment: Payment,
  msisdn: string,
  network: 'WIFI' | 'MOBILE_DATA',
  language = 'en',
) {
  const browser = new CheckoutBrowser(sandbox.checkoutBaseUrl, language);
  const numberStep = await browser.open(payment.checkoutUrl);
  expect(numberStep.status).toBe(200);
  return { browser, page: await browser.submit(numberStep, '/number', { msisdn, network }) };
}

async function payWithPin(payment: Payment, msisdn: string): Promise<BrowserPage> {
  const { browser, page } = await enterNumber(payment, msisdn, 'WIFI');
  expect(page.html).toContain('Enter the code sent by SMS');
  return browser.submit(page, '/consent/pin', { pin: latestPin(payment.paymentUid) });
}

describe('paying each default offer by PIN', () => {
  it('a day pass: SUCCEEDED with an order, payment.succeeded signed and echoed', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const done = await payWithPin(payment, '+21620000000');
    expect(returnParams(done)).toEqual({ paymentUid: payment.paymentUid, status: 'SUCCEEDED' });
    const read = await readPayment(payment.paymentUid);
    expect(read).toMatchObject({
      status: 'SUCCEEDED',
      orderId: expect.stringMatching(/^ord_/),
      subscriberUid: expect.stringMatching(/^sbr_/),
    });
    expect(read.subscriptionUid).toBeUndefined();
    const events = await deliveredEvents();
    expect(events).toEqual([
      {
        event: 'payment.succeeded',
        paymentUid: payment.paymentUid,
        status: 'SUCCEEDED',
        orderId: read.orderId,
        productUid: 'prod_day_pass',
        offerUid: 'offer_day_pass',
        subscriberUid: read.subscriberUid,
        metadata: { userId: 'user_42' },
        occurredAt: '2030-01-01T00:00:00.000Z',
      },
    ]);
  });

  it('an unlock: payment.succeeded then entitlement.granted', async () => {
    await start();
    const payment = await newPayment('offer_full_unlock');
    expect(returnParams(await payWithPin(payment, '+21650001234')).status).toBe('SUCCEEDED');
    const events = await deliveredEvents();
    expect(events.map((event) => event.event)).toEqual(['payment.succeeded', 'entitlement.granted']);
    const read = await readPayment(payment.paymentUid);
    for (const event of events) {
      expect(event).toMatchObject({
        orderId: read.orderId,
        productUid: 'prod_full_unlock',
        metadata: { userId: 'user_42' },
      });
    }
  });

  it('a subscription with a trial: nothing charged, TRIALING, subscription.trial_started', async () => {
    await start();
    const payment = await newPayment('offer_premium_monthly');
    await sandbox.clock.advance(60);
    expect(returnParams(await payWithPin(payment, '+21620000000')).status).toBe('SUCCEEDED');
    const read = await readPayment(payment.paymentUid);
    expect(read.orderId).toBeUndefined();
    expect(read.subscriptionUid).toMatch(/^subs_/);
    const subscription = dataOf(
      await apiGet(sandbox, `/v1/subscriptions/${read.subscriptionUid}`, token),
      subscriptionSchema,
    );
    expect(subscription).toEqual({
      subscriptionUid: read.subscriptionUid,
      status: 'TRIALING',
      productUid: 'prod_premium',
      offerUid: 'offer_premium_monthly',
      subscriberUid: read.subscriberUid,
      currentPeriodEnd: '2030-01-08T00:01:00.000Z',
      cancelAt: null,
      trialEndsAt: '2030-01-08T00:01:00.000Z',
    });
    const events = await deliveredEvents();
    expect(events.map((event) => event.event)).toEqual(['payment.succeeded', 'subscription.trial_started']);
    for (const event of events) {
      expect(event).toMatchObject({
        subscriptionUid: read.subscriptionUid,
        subscriptionStatus: 'TRIALING',
        metadata: { userId: 'user_42' },
      });
      expect(event.orderId).toBeUndefined();
    }
  });

  it('a subscription without a trial: charged, ACTIVE for a month, entitlement.granted', async () => {
    await start((config) => {
      const subscription = config.offers.find((offer) => offer.type === 'SUBSCRIPTION');
      if (subscription) subscription.trialDays = 0;
    });
    const payment = await newPayment('offer_premium_monthly');
    expect(returnParams(await payWithPin(payment, '+21620000000')).status).toBe('SUCCEEDED');
    const read = await readPayment(payment.paymentUid);
    expect(read.orderId).toMatch(/^ord_/);
    const subscription = dataOf(
      await apiGet(sandbox, `/v1/subscriptions/${read.subscriptionUid}`, token),
      subscriptionSchema,
    );
    expect(subscription).toMatchObject({
      status: 'ACTIVE',
      currentPeriodEnd: '2030-02-01T00:00:00.000Z',
      cancelAt: null,
    });
    expect(subscription.trialEndsAt).toBeUndefined();
    const events = await deliveredEvents();
    expect(events.map((event) => event.event)).toEqual(['payment.succeeded', 'entitlement.granted']);
    expect(events[1]).toMatchObject({
      orderId: read.orderId,
      subscriptionUid: read.subscriptionUid,
      subscriptionStatus: 'ACTIVE',
    });
  });

  it('shows the PIN in the sandbox inbox (HTML and JSON) and a wrong PIN costs an attempt', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const { browser, page } = await enterNumber(payment, '+216 20 000 000', 'WIFI');
    const pin = latestPin(payment.paymentUid);
    const inbox = await browser.open(`${sandbox.apiBaseUrl}/sandbox/inbox?msisdn=%2B21620000000`);
    expect(inbox.html).toContain(pin);
    const json = await apiGet(sandbox, `/sandbox/sms?paymentUid=${payment.paymentUid}`);
    expect(JSON.stringify(json.body)).toContain(pin);
    const wrong = await browser.submit(page, '/consent/pin', { pin: pin === '0000' ? '1111' : '0000' });
    expect(wrong.status).toBe(422);
    expect(wrong.html).toContain('Attempts left: 2.');
    expect(returnParams(await browser.submit(wrong, '/consent/pin', { pin })).status).toBe('SUCCEEDED');
  });

  it('fails the payment after too many wrong PINs', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    let { browser, page } = await enterNumber(payment, '+21620000000', 'WIFI');
    const wrongPin = latestPin(payment.paymentUid) === '0000' ? '1111' : '0000';
    for (let attempt = 0; attempt < 3; attempt++)
      page = await browser.submit(page, '/consent/pin', { pin: wrongPin });
    expect(page.html).toContain('too many wrong codes');
    expect(returnParams({ ...page, leftTo: linkBack(page) }).status).toBe('FAILED');
    expect((await readPayment(payment.paymentUid)).status).toBe('FAILED');
    expect((await deliveredEvents()).map((event) => [event.event, event.status])).toEqual([
      ['payment.failed', 'FAILED'],
    ]);
  });

  it('expires a PIN after its time and sends a new one on request', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const { browser, page } = await enterNumber(payment, '+21620000000', 'WIFI');
    const firstPin = latestPin(payment.paymentUid);
    await sandbox.clock.advance(301);
    const expired = await browser.submit(page, '/consent/pin', { pin: firstPin });
    expect(expired.html).toContain('This code has expired');
    const resent = await browser.submit(expired, '/consent/pin/resend');
    expect(sandbox.sms({ paymentUid: payment.paymentUid })).toHaveLength(2);
    expect(
      returnParams(await browser.submit(resent, '/consent/pin', { pin: latestPin(payment.paymentUid) }))
        .status,
    ).toBe('SUCCEEDED');
  });
});

/** The return link of a result page, as the person would follow it. */
function linkBack(page: BrowserPage): string {
  const href = /<a class="button" id="return" href="([^"]+)"/.exec(page.html)?.[1];
  if (!href) throw new Error('No return link on the page');
  return href.replace(/&amp;/g, '&');
}

describe('consent methods', () => {
  it('HEADER_ENRICHMENT recognises the line on mobile data, on the operator’s own page', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const { browser, page } = await enterNumber(payment, '+21690000000', 'MOBILE_DATA');
    expect(page.html).toContain('Your line was recognised');
    expect(page.html).toContain('Confirmation page of Carthage Telecom');
    expect(sandbox.sms()).toHaveLength(0);
    expect(returnParams(await browser.submit(page, '/consent/header-enrichment')).status).toBe('SUCCEEDED');
    expect((await deliveredEvents()).map((event) => event.event)).toEqual(['payment.succeeded']);
  });

  it('HEADER_ENRICHMENT falls back to a PIN on Wi-Fi', async () => {
    await start();
    const payment = await newPayment('offer_full_unlock');
    const { browser, page } = await enterNumber(payment, '+21640000000', 'WIFI');
    expect(page.html).toContain('Enter the code sent by SMS');
    expect(page.forms.some((form) => form.action.endsWith('/consent/header-enrichment'))).toBe(false);
    const done = await browser.submit(page, '/consent/pin', { pin: latestPin(payment.paymentUid) });
    expect(returnParams(done).status).toBe('SUCCEEDED');
  });

  it('MO_SMS: the subscriber sends a keyword to the short code', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const { browser, page } = await enterNumber(payment, '+21690000000', 'WIFI');
    const switchForm = page.forms.find(
      (form) => form.action.endsWith('/method') && form.fields.method === 'MO_SMS',
    );
    expect(switchForm).toBeDefined();
    const moPage = await browser.submit({ ...page, forms: switchForm ? [switchForm] : [] }, '/method');
    expect(moPage.html).toContain('Confirm by SMS');
    expect(moPage.html).toContain('85050');
    const wrong = await browser.submit(moPage, '/consent/mo-sms', { keyword: 'HELLO' });
    expect(wrong.status).toBe(422);
    const done = await browser.submit(wrong, '/consent/mo-sms');
    expect(returnParams(done).status).toBe('SUCCEEDED');
    const sent = sandbox
      .sms({ paymentUid: payment.paymentUid })
      .filter((message) => message.direction === 'MO');
    expect(sent.map((message) => [message.from, message.to])).toEqual([
      ['+21690000000', '85050'],
      ['+21690000000', '85050'],
    ]);
  });

  it('follows the consent policy: methods allowed per offer type, and none on Wi-Fi for a network-only operator', async () => {
    await start((config) => {
      config.consentPolicy.allowedByOfferType = { NON_CONSUMABLE: ['PIN'] };
      const carthage = config.operators.find((operator) => operator.code === 'CARTHAGE_TELECOM');
      if (carthage) carthage.consentMethods = ['HEADER_ENRICHMENT'];
      const sahel = config.operators.find((operator) => operator.code === 'SAHEL_MOBILE');
      if (sahel) sahel.consentMethods = ['PIN', 'HEADER_ENRICHMENT'];
    });
    const unlock = await newPayment('offer_full_unlock');
    const { page } = await enterNumber(unlock, '+21620000000', 'MOBILE_DATA');
    expect(page.html).toContain('Enter the code sent by SMS');
    const dayPass = await newPayment('offer_day_pass');
    const onWifi = await enterNumber(dayPass, '+21690000000', 'WIFI');
    expect(onWifi.page.status).toBe(422);
    expect(onWifi.page.html).toContain('needs mobile data');
  });
});

describe('test numbers', () => {
  it.each([
    ['+21620000101', 'PAY-101', 'Your balance is insufficient.'],
    ['+21620000103', 'PAY-103', 'The operator declined the payment.'],
  ])('%s fails the charge with %s and payment.failed', async (msisdn, code, text) => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const failed = await payWithPin(payment, msisdn);
    expect(failed.leftTo).toBeUndefined();
    expect(failed.html).toContain(`${text} (${code})`);
    // The failure stays on screen until the subscriber follows the link back (WCAG 2.2.1).
    expect(failed.html).not.toContain('http-equiv="refresh"');
    expect(failed.html).toContain('Nothing was charged.');
    expect(failed.html).not.toContain('Charged to your mobile phone bill');
    expect(returnParams({ ...failed, leftTo: linkBack(failed) })).toEqual({
      paymentUid: payment.paymentUid,
      status: 'FAILED',
    });
    const read = await readPayment(payment.paymentUid);
    expect(read.status).toBe('FAILED');
    expect(read.orderId).toBeUndefined();
    const events = await deliveredEvents();
    expect(events).toEqual([
      expect.objectContaining({
        event: 'payment.failed',
        status: 'FAILED',
        subscriberUid: read.subscriberUid,
        metadata: { userId: 'user_42' },
      }),
    ]);
    expect(events[0]?.orderId).toBeUndefined();
  });

  it.each([
    ['+21690000101', 'PAY-101'],
    ['+21690000103', 'PAY-103'],
  ])('%s fails with %s on the network-recognition operator too', async (msisdn, code) => {
    await start();
    const payment = await newPayment('offer_full_unlock');
    const { browser, page } = await enterNumber(payment, msisdn, 'MOBILE_DATA');
    const failed = await browser.submit(page, '/consent/header-enrichment');
    expect(failed.html).toContain(`(${code})`);
    expect((await deliveredEvents()).map((event) => event.event)).toEqual(['payment.failed']);
  });

  it.each([
    ['+21620000301', 'RSK-101', 'This line has opted out of carrier billing.'],
    ['+21690000301', 'RSK-101', 'This line has opted out of carrier billing.'],
    ['+21620000202', 'SBR-102', 'This mobile number is invalid.'],
    ['20 000 000', 'SBR-102', 'This mobile number is invalid.'],
    ['+21670000000', 'SBR-104', 'This mobile operator is not supported for this offer.'],
  ])(
    '%s is refused at the number step with %s, and the subscriber may try another number',
    async (msisdn, code, text) => {
      await start();
      const payment = await newPayment('offer_day_pass');
      const { browser, page } = await enterNumber(payment, msisdn, 'WIFI');
      expect(page.status).toBe(422);
      expect(page.html).toContain(`${text} (${code})`);
      expect(page.forms.find((form) => form.action.endsWith('/number'))?.fields.msisdn).toBe(msisdn);
      expect((await readPayment(payment.paymentUid)).status).toBe('REQUIRES_ACTION');
      expect(sandbox.sms()).toHaveLength(0);
      const retried = await browser.submit(page, '/number', { msisdn: '+21620000000' });
      expect(retried.html).toContain('Enter the code sent by SMS');
      expect(await deliveredEvents()).toEqual([]);
    },
  );

  it('a slow line stays PROCESSING on the clock, then succeeds', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const processing = await payWithPin(payment, '+21620000999');
    expect(processing.html).toContain('Your operator is processing the payment');
    expect(processing.html).toContain('<meta http-equiv="refresh" content="2">');
    expect((await readPayment(payment.paymentUid)).status).toBe('PROCESSING');
    expect(await deliveredEvents()).toEqual([]);
    await sandbox.clock.advance(29);
    expect((await readPayment(payment.paymentUid)).status).toBe('PROCESSING');
    await sandbox.clock.advance(1);
    expect((await readPayment(payment.paymentUid)).status).toBe('SUCCEEDED');
    expect((await deliveredEvents()).map((event) => [event.event, event.occurredAt])).toEqual([
      ['payment.succeeded', '2030-01-01T00:00:30.000Z'],
    ]);
    const back = await new CheckoutBrowser(sandbox.checkoutBaseUrl).open(payment.checkoutUrl);
    expect(returnParams(back).status).toBe('SUCCEEDED');
  });

  it('a line short of balance can still start a free trial: nothing is charged', async () => {
    await start();
    const payment = await newPayment('offer_premium_monthly');
    expect(returnParams(await payWithPin(payment, '+21620000101')).status).toBe('SUCCEEDED');
  });

  it('any other number of a configured operator succeeds', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    expect(returnParams(await payWithPin(payment, '+21655443322')).status).toBe('SUCCEEDED');
  });
});

describe('subscriberUid', () => {
  it('is stable per application and number, differs across numbers and applications, and hides the number', async () => {
    let other = { clientId: '', clientSecret: '' };
    await start((config) => {
      other = addApplication(config, 'svc_test_other', ['payments']);
    });
    const pay = async (msisdn: string, accessToken = token) => {
      const created = await createPayment(sandbox, accessToken, paymentBody('offer_day_pass'));
      const payment = dataOf(created, paymentSchema);
      await payWithPin(payment, msisdn);
      return dataOf(await apiGet(sandbox, `/v1/payments/${payment.paymentUid}`, accessToken), paymentSchema)
        .subscriberUid;
    };
    const first = await pay('+21620000000');
    expect(await pay('+21620000000')).toBe(first);
    expect(await pay('+21620000001')).not.toBe(first);
    const otherToken = await getToken(sandbox, other.clientId, other.clientSecret);
    expect(await pay('+21620000000', otherToken)).not.toBe(first);
    expect(first).not.toContain('20000000');
  });
});

describe('checkout pages', () => {
  it('locks a prefilled number when msisdnEditable is false', async () => {
    await start();
    const payment = await newPayment('offer_day_pass', {
      prefill: { msisdn: '+21620000000', msisdnEditable: false },
    });
    const browser = new CheckoutBrowser(sandbox.checkoutBaseUrl);
    const numberStep = await browser.open(payment.checkoutUrl);
    const form = numberStep.forms.find((candidate) => candidate.action.endsWith('/number'));
    expect(form?.fields.msisdn).toBe('+21620000000');
    expect(form?.editable).not.toContain('msisdn');
    const consent = await browser.submit(numberStep, '/number', { msisdn: '+21620000001', network: 'WIFI' });
    expect(sandbox.sms().map((message) => message.to)).toEqual(['+21620000000']);
    expect(consent.forms.some((candidate) => candidate.action.endsWith('/change-number'))).toBe(false);
  });

  it('prefills an editable number, and honours the operator hint', async () => {
    await start();
    const payment = await newPayment('offer_day_pass', {
      prefill: { msisdn: '+21620000000' },
      operator: 'SAHEL_MOBILE',
    });
    const browser = new CheckoutBrowser(sandbox.checkoutBaseUrl);
    const numberStep = await browser.open(payment.checkoutUrl);
    expect(numberStep.forms.find((form) => form.action.endsWith('/number'))?.editable).toContain('msisdn');
    const refused = await browser.submit(numberStep, '/number', { msisdn: '+21690000000' });
    expect(refused.html).toContain('(SBR-104)');
  });

  it('lets the subscriber give up: FAILED and payment.failed', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const browser = new CheckoutBrowser(sandbox.checkoutBaseUrl);
    const gaveUp = await browser.submit(await browser.open(payment.checkoutUrl), '/abandon');
    expect(gaveUp.html).toContain('You cancelled the payment.');
    expect((await readPayment(payment.paymentUid)).status).toBe('FAILED');
    expect((await deliveredEvents()).map((event) => event.event)).toEqual(['payment.failed']);
  });

  it.each([
    ['ar', 'ar', 'rtl', 'أكّد عملية الدفع'],
    ['fr-FR,fr;q=0.9,en;q=0.8', 'fr', 'ltr', 'Confirmez votre paiement'],
    ['de-DE, fr;q=0.5, ar;q=0.4', 'fr', 'ltr', 'Votre numéro de mobile'],
    ['ja', 'en', 'ltr', 'Confirm your payment'],
  ])('speaks the Accept-Language %s', async (acceptLanguage, lang, dir, text) => {
    await start();
    const payment = await newPayment('offer_premium_monthly');
    const page = await new CheckoutBrowser(sandbox.checkoutBaseUrl, acceptLanguage).open(payment.checkoutUrl);
    expect(page.html).toContain(`<html lang="${lang}" dir="${dir}">`);
    expect(page.headers.get('content-language')).toBe(lang);
    expect(page.headers.get('vary')).toBe('Accept-Language');
    expect(page.html).toContain(text);
    expect(page.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it('can be completed in Arabic', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const { browser, page } = await enterNumber(payment, '+21620000000', 'WIFI', 'ar');
    expect(page.html).toContain('أدخل الرمز المرسل عبر رسالة قصيرة');
    expect(sandbox.sms()[0]?.text).toContain('هو رمز تأكيد');
    expect(
      returnParams(await browser.submit(page, '/consent/pin', { pin: latestPin(payment.paymentUid) })).status,
    ).toBe('SUCCEEDED');
  });

  it('escapes everything a partner or a subscriber controls', async () => {
    await start((config) => {
      const dayPass = config.offers.find((offer) => offer.offerUid === 'offer_day_pass');
      if (dayPass) dayPass.name = '<script>alert(1)</script>';
    });
    const payment = await newPayment('offer_day_pass', {
      returnUrl: 'https://partner.example/return?next="><script>alert(2)</script>',
      metadata: { note: '<img src=x onerror=alert(3)>' },
    });
    const browser = new CheckoutBrowser(sandbox.checkoutBaseUrl);
    const numberStep = await browser.open(payment.checkoutUrl);
    const refused = await browser.submit(numberStep, '/number', { msisdn: '"><img src=x onerror=alert(4)>' });
    const gaveUp = await browser.submit(refused, '/abandon');
    for (const page of [numberStep, refused, gaveUp]) {
      expect(page.html).not.toMatch(/<script>alert|<img src=x/);
      expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
    expect(refused.html).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(4)&gt;"');
  });

  it('forbids framing of a redirect checkout, and renders an embedded one in an iframe that reports back', async () => {
    await start();
    const redirect = await newPayment('offer_day_pass');
    const redirectPage = await new CheckoutBrowser(sandbox.checkoutBaseUrl).open(redirect.checkoutUrl);
    expect(redirectPage.headers.get('x-frame-options')).toBe('DENY');
    expect(redirectPage.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const embedded = await newPayment('offer_day_pass', { presentation: 'embedded' });
    const { browser, page } = await enterNumber(embedded, '+21690000000', 'MOBILE_DATA');
    expect(page.headers.get('x-frame-options')).toBeNull();
    expect(page.headers.get('content-security-policy')).toContain('frame-ancestors *');
    const done = await browser.submit(page, '/consent/header-enrichment');
    expect(done.leftTo).toBeUndefined();
    expect(done.html).toContain('target="_top"');
    const nonce = /script-src 'nonce-([^']+)'/.exec(done.headers.get('content-security-policy') ?? '')?.[1];
    expect(done.html).toContain(`<script nonce="${nonce}">window.parent.postMessage(`);
    expect(done.html).toContain('"https://partner.example"');
    expect(returnParams({ ...done, leftTo: linkBack(done) }).status).toBe('SUCCEEDED');
  });

  it("sends the subscriber back to an app's deep link, with the hints, and posts no message without a web origin", async () => {
    await start();
    const redirect = await newPayment('offer_day_pass', { returnUrl: 'myapp://billing/done?from=shop' });
    const { browser, page } = await enterNumber(redirect, '+21690000000', 'MOBILE_DATA');
    // The consent form's redirect ends at the deep link: CSP form-action allows its scheme.
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' myapp:");
    const back = await browser.submit(page, '/consent/header-enrichment');
    const url = new URL(back.leftTo ?? '');
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe('myapp://billing/done');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      from: 'shop',
      paymentUid: redirect.paymentUid,
      status: 'SUCCEEDED',
    });

    const embedded = await newPayment('offer_day_pass', {
      presentation: 'embedded',
      returnUrl: 'myapp://done',
    });
    const framed = await enterNumber(embedded, '+21690000000', 'MOBILE_DATA');
    const done = await framed.browser.submit(framed.page, '/consent/header-enrichment');
    expect(linkBack(done)).toBe(`myapp://done?paymentUid=${embedded.paymentUid}&status=SUCCEEDED`);
    expect(done.html).toContain('target="_top"');
    expect(done.html).not.toContain('postMessage');
  });

  it('answers 404 for an unknown payment', async () => {
    await start();
    const page = await new CheckoutBrowser(sandbox.checkoutBaseUrl).open(
      `${sandbox.checkoutBaseUrl}/c/pay_nope`,
    );
    expect(page.status).toBe(404);
    expect(page.html).toContain('Payment not found');
  });
});

describe('what the pages say (issue 13)', () => {
  it('names the offer in the page’s language, and formats its price and period with core', async () => {
    await start((config) => {
      const monthly = config.offers.find((offer) => offer.offerUid === 'offer_premium_monthly');
      if (monthly?.billingPeriod) monthly.billingPeriod = { unit: 'WEEK', count: 2 };
    });
    const payment = await newPayment('offer_premium_monthly');
    const page = async (language: string) =>
      (await new CheckoutBrowser(sandbox.checkoutBaseUrl, language).open(payment.checkoutUrl)).html;
    const [fr, ar, de] = await Promise.all([page('fr'), page('ar'), page('de')]);
    expect(fr).toContain('<strong>Premium, mensuel</strong>');
    expect(fr).toContain('toutes les 2 semaines');
    expect(ar).toContain('<strong>بريميوم، شهري</strong>');
    expect(ar).toContain('كل أسبوعين');
    expect(ar).toContain('مجانًا لمدة 7 أيام');
    expect(de).toContain('<strong>Premium, monthly</strong>');
  });

  it('puts no punctuation after the Arabic currency abbreviation', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const page = await new CheckoutBrowser(sandbox.checkoutBaseUrl, 'ar').open(payment.checkoutUrl);
    const offer = /<section class="offer">[\s\S]*?<\/section>/.exec(page.html)?.[0] ?? '';
    expect(offer).toContain('دفعة واحدة بقيمة');
    expect(offer.replace(/[\u200e\u200f]/g, '').replace(/\u00a0/g, ' ')).toContain('1.000 د.ت.</span>');
    expect(page.html).not.toMatch(/\.[\u200e\u200f\u061c]*،/);
  });

  it('offers a free trial with its own button and says nothing is charged today', async () => {
    await start();
    const payment = await newPayment('offer_premium_monthly');
    const { page } = await enterNumber(payment, '+21690000000', 'MOBILE_DATA');
    expect(page.html).toContain('<button type="submit" class="">Start the free trial</button>');
    expect(page.html).toContain('Nothing is charged today.');
    expect(page.html).not.toContain('Confirm and pay');
  });

  it('links the keyword SMS to the messages app', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const { browser, page } = await enterNumber(payment, '+21690000000', 'WIFI');
    const mo = await browser.submit(
      { ...page, forms: page.forms.filter((form) => form.fields.method === 'MO_SMS') },
      '/method',
    );
    const keyword = /<span class="code">(PAY [0-9]{4})<\/span>/.exec(mo.html)?.[1] ?? '';
    expect(mo.html).toContain(`href="sms:85050?body=${encodeURIComponent(keyword)}"`);
  });

  it('answers /favicon.ico with an SVG', async () => {
    await start();
    const icon = await fetch(`${sandbox.checkoutBaseUrl}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg /);
  });
});
