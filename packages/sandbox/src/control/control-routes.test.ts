import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../start/start-sandbox.js';
import { apiGet } from '../test-support/api-client.js';
import { startTestSandbox } from '../test-support/sandbox-fixture.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver.js';
import { CheckoutBrowser } from '../testing/checkout-browser.js';

let sandbox: Sandbox;
let receiver: WebhookReceiver;
afterEach(async () => {
  await sandbox.close();
  await receiver.close();
});

describe('the sandbox dashboard', () => {
  it('offers a trial by its trial, never "Pay" its price; a paid offer by its price (issue 54)', async () => {
    receiver = await startWebhookReceiver();
    sandbox = await startTestSandbox({ webhookUrl: receiver.url });
    const { html } = await new CheckoutBrowser(sandbox.apiBaseUrl).open(`${sandbox.apiBaseUrl}/sandbox`);
    const button = (offerUid: string) =>
      new RegExp(`value="${offerUid}">\\s*<button type="submit">([^<]*)</button>`).exec(html)?.[1];
    expect(button('offer_premium_monthly')).toBe('Start the 7-day free trial in this browser');
    expect(button('offer_premium_monthly_paid')).toBe('Pay TND\u00a04.500 in this browser');
    expect(button('offer_day_pass')).toBe('Pay TND\u00a01.000 in this browser');
  });

  it('lets a person pay for each default offer in a browser, and the receiver gets it signed', async () => {
    receiver = await startWebhookReceiver();
    sandbox = await startTestSandbox({ webhookUrl: receiver.url });
    const browser = new CheckoutBrowser(sandbox.apiBaseUrl);
    const dashboard = await browser.open(`${sandbox.apiBaseUrl}/`);
    expect(dashboard.url).toBe(`${sandbox.apiBaseUrl}/sandbox`);
    const offerForms = dashboard.forms.filter(
      (form) => form.action === '/sandbox/checkout' && form.fields.presentation === undefined,
    );
    expect(offerForms.map((form) => form.fields.offerUid)).toEqual([
      'offer_premium_monthly',
      'offer_day_pass',
      'offer_full_unlock',
      'offer_premium_monthly_paid',
    ]);
    for (const form of offerForms) {
      const checkout = await browser.submit({ ...dashboard, forms: [form] }, '/sandbox/checkout');
      expect(checkout.url).toMatch(/\/c\/pay_[0-9a-f]+$/);
      const pinStep = await browser.submit(checkout, '/number', { msisdn: '+21620000000', network: 'WIFI' });
      const paymentUid = checkout.url.split('/').at(-1) ?? '';
      const pin = sandbox.sms({ paymentUid })[0]?.text.slice(0, 4) ?? '';
      const back = await browser.submit(pinStep, '/consent/pin', { pin });
      expect(back.url).toBe(`${sandbox.apiBaseUrl}/sandbox/return?paymentUid=${paymentUid}&status=SUCCEEDED`);
      expect(back.html).toContain('Server-side read: <strong>SUCCEEDED</strong>');
    }
    await sandbox.deliverDue();
    const events = receiver.verifiedEvents(sandbox.credentials.webhookSecret);
    expect(
      events.filter((event) => event.event === 'payment.succeeded').map((event) => event.offerUid),
    ).toEqual(['offer_premium_monthly', 'offer_day_pass', 'offer_full_unlock', 'offer_premium_monthly_paid']);
  });

  it('mounts an embedded checkout in an iframe of a stand-in partner page', async () => {
    receiver = await startWebhookReceiver();
    sandbox = await startTestSandbox();
    const browser = new CheckoutBrowser(sandbox.apiBaseUrl);
    const dashboard = await browser.open(`${sandbox.apiBaseUrl}/sandbox`);
    const embeddedForm = dashboard.forms.find(
      (form) => form.fields.presentation === 'embedded' && form.fields.offerUid === 'offer_day_pass',
    );
    expect(embeddedForm).toBeDefined();
    const partnerPage = await browser.submit(
      { ...dashboard, forms: embeddedForm ? [embeddedForm] : [] },
      '/sandbox/checkout',
    );
    expect(partnerPage.headers.get('content-security-policy')).toContain("frame-src 'self'");
    const src = /<iframe class="checkout" src="([^"]+)"/.exec(partnerPage.html)?.[1] ?? '';
    const framed = await browser.open(src);
    expect(framed.headers.get('x-frame-options')).toBeNull();
    expect(framed.headers.get('content-security-policy')).toContain('frame-ancestors *');
  });

  it('serves the config, the payments and the SMS as JSON', async () => {
    receiver = await startWebhookReceiver();
    sandbox = await startTestSandbox();
    const config = await apiGet(sandbox, '/sandbox/config');
    expect((config.body as { data: { offers: unknown[] } }).data.offers).toHaveLength(4);
    expect((await apiGet(sandbox, '/sandbox/payments')).body).toEqual({ success: true, data: [] });
    expect((await apiGet(sandbox, '/sandbox/sms')).body).toEqual({ success: true, data: [] });
  });
});
