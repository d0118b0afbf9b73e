import type { Payment, WebhookEvent } from '@dcbkit/core';
import { paymentSchema } from '@dcbkit/core/schemas';
import { afterEach, expect } from 'vitest';
import type { SandboxConfig } from '../config/config-schema.js';
import type { Sandbox } from '../start/start-sandbox.js';
import { type BrowserPage, CheckoutBrowser } from '../testing/checkout-browser.js';
import { apiGet, createPayment, dataOf, getToken, paymentBody } from './api-client.js';
import { startTestSandbox } from './sandbox-fixture.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

/** The sandbox of the running test, its webhook receiver and a token of its first application. */
export interface CheckoutWorld {
  sandbox: Sandbox;
  receiver: WebhookReceiver;
  token: string;
}

/**
 * For a test file of the checkout pages: `start()` in each test gives a sandbox posting to a
 * receiver, closed after the test; the helpers pay, read and look at what the test's sandbox holds.
 */
export function useCheckoutWorld() {
  const world = {} as CheckoutWorld;
  afterEach(async () => {
    await world.sandbox.close();
    await world.receiver.close();
  });

  async function start(configure?: (config: SandboxConfig) => void): Promise<void> {
    world.receiver = await startWebhookReceiver();
    world.sandbox = await startTestSandbox({
      webhookUrl: world.receiver.url,
      ...(configure ? { configure } : {}),
    });
    world.token = await getToken(world.sandbox);
  }

  async function newPayment(offerUid: string, extra: Record<string, unknown> = {}): Promise<Payment> {
    const answer = await createPayment(
      world.sandbox,
      world.token,
      paymentBody(offerUid, { metadata: { userId: 'user_42' }, ...extra }),
    );
    expect(answer.status).toBe(201);
    return dataOf(answer, paymentSchema);
  }

  async function readPayment(paymentUid: string): Promise<Payment> {
    return dataOf(await apiGet(world.sandbox, `/v1/payments/${paymentUid}`, world.token), paymentSchema);
  }

  /** The latest PIN the mock operator texted for a payment. */
  function latestPin(paymentUid: string): string {
    const [latest] = world.sandbox.sms({ paymentUid }).filter((message) => message.direction === 'MT');
    const code = latest?.text.match(/^[0-9]+/)?.[0];
    if (!code) throw new Error(`No PIN was sent for ${paymentUid}`);
    return code;
  }

  /** Every webhook received so far, verified with core's verifyWebhook. */
  async function deliveredEvents(): Promise<WebhookEvent[]> {
    await world.sandbox.deliverDue();
    return world.receiver.verifiedEvents(world.sandbox.credentials.webhookSecret);
  }

  async function enterNumber(
    payment: Payment,
    msisdn: string,
    network: 'WIFI' | 'MOBILE_DATA',
    language = 'en',
  ) {
    const browser = new CheckoutBrowser(world.sandbox.checkoutBaseUrl, language);
    const numberStep = await browser.open(payment.checkoutUrl);
    expect(numberStep.status).toBe(200);
    return { browser, page: await browser.submit(numberStep, '/number', { msisdn, network }) };
  }

  async function payWithPin(payment: Payment, msisdn: string): Promise<BrowserPage> {
    const { browser, page } = await enterNumber(payment, msisdn, 'WIFI');
    expect(page.html).toContain('Enter the code sent by SMS');
    return browser.submit(page, '/consent/pin', { pin: latestPin(payment.paymentUid) });
  }

  return { world, start, newPayment, readPayment, latestPin, deliveredEvents, enterNumber, payWithPin };
}

/** The query of the return URL the checkout sent the browser to, checked to be the partner's. */
export function returnParams(page: BrowserPage): Record<string, string> {
  if (!page.leftTo) throw new Error(`The checkout did not send the browser back; it shows ${page.url}`);
  const url = new URL(page.leftTo);
  expect(`${url.origin}${url.pathname}`).toBe('https://partner.example/return');
  return Object.fromEntries(url.searchParams);
}

/** The return link of a result page, as the person would follow it. */
export function linkBack(page: BrowserPage): string {
  const href = /<a class="button" id="return" href="([^"]+)"/.exec(page.html)?.[1];
  if (!href) throw new Error('No return link on the page');
  return href.replace(/&amp;/g, '&');
}
