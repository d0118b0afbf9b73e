/**
 * The checkout a subscriber trusts, in a phone-sized Chromium, in each language: axe-core finds
 * nothing, and the page says the right thing (its own language, its own punctuation, what is and
 * is not charged), never moves on by itself, and offers an sms: link for the keyword.
 */
import { paymentSchema } from '@dcbkit/core/schemas';
import type { Sandbox } from '@dcbkit/sandbox';
import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPayment,
  dataOf,
  getToken,
  paymentBody,
} from '../../packages/sandbox/src/test-support/api-client.js';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { axeViolations } from './axe.js';
import { chromiumAvailable, launchChromium } from './chromium.js';

const PHONE = { width: 360, height: 740 };
// An abbreviation's full stop followed by a comma or another stop ("د.ت.،"), bidi marks allowed between.
const DOUBLED_MARK = /\.[\u200e\u200f\u061c]*[،,.]/;
const LOCALES = ['en', 'fr', 'ar'] as const;
type Locale = (typeof LOCALES)[number];

const EXPECTED: Record<
  Locale,
  { premium: string; dayPass: string; trialButton: string; nothingCharged: string; openSms: string }
> = {
  en: {
    premium: 'Premium, monthly',
    dayPass: 'Day pass',
    trialButton: 'Start the free trial',
    nothingCharged: 'Nothing was charged.',
    openSms: 'Open my messages app',
  },
  fr: {
    premium: 'Premium, mensuel',
    dayPass: 'Pass journée',
    trialButton: 'Commencer l’essai gratuit',
    nothingCharged: 'Rien n’a été débité.',
    openSms: 'Ouvrir mon application de messages',
  },
  ar: {
    premium: 'بريميوم، شهري',
    dayPass: 'تذكرة يوم',
    trialButton: 'بدء الفترة التجريبية المجانية',
    nothingCharged: 'لم يُخصم أي مبلغ.',
    openSms: 'فتح تطبيق الرسائل',
  },
};

describe.runIf(chromiumAvailable)('checkout pages on a phone, in en, fr and ar', () => {
  let browser: Browser;
  let sandbox: Sandbox;

  beforeAll(async () => {
    browser = await launchChromium();
    sandbox = await startTestSandbox();
  });

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  async function phone(locale: Locale): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      locale,
      extraHTTPHeaders: { 'accept-language': locale },
      // axe-core is injected into pages whose CSP admits only their own nonce-bound script.
      bypassCSP: true,
    });
    return { context, page: await context.newPage() };
  }

  async function newPayment(offerUid: string) {
    const token = await getToken(sandbox);
    return dataOf(await createPayment(sandbox, token, paymentBody(offerUid)), paymentSchema);
  }

  async function expectAccessible(page: Page, where: string) {
    expect({ where, violations: await axeViolations(page) }).toEqual({ where, violations: [] });
  }

  it.each(LOCALES)('%s: number, network recognition and keyword steps of a free trial', async (locale) => {
    const words = EXPECTED[locale];
    const { context, page } = await phone(locale);
    const payment = await newPayment('offer_premium_monthly');
    await page.goto(payment.checkoutUrl);
    const numberText = (await page.textContent('main')) ?? '';
    expect(numberText).toContain(words.premium);
    expect(numberText).not.toMatch(DOUBLED_MARK);
    await expectAccessible(page, 'number step');

    await page.fill('input[name=msisdn]', '+21690000000');
    await page.locator('form[action$="/number"] button').click();
    await page.waitForSelector('form[action$="/consent/header-enrichment"]');
    expect(await page.textContent('form[action$="/consent/header-enrichment"] button')).toBe(
      words.trialButton,
    );
    await expectAccessible(page, 'network recognition step');

    await page.locator('form[action$="/method"]:has(input[value=MO_SMS]) button').click();
    await page.waitForSelector('#sms-link');
    expect(await page.getAttribute('#sms-link', 'href')).toMatch(/^sms:85050\?body=PAY%20[0-9]{4}$/);
    expect(await page.textContent('#sms-link')).toBe(words.openSms);
    await expectAccessible(page, 'keyword step');
    await context.close();
  });

  it.each(LOCALES)('%s: PIN step and a failure that stays on screen', async (locale) => {
    const words = EXPECTED[locale];
    const { context, page } = await phone(locale);
    const payment = await newPayment('offer_day_pass');
    await page.goto(payment.checkoutUrl);
    await page.fill('input[name=msisdn]', '+21620000101');
    await page.check('input[name=network][value=WIFI]');
    await page.locator('form[action$="/number"] button').click();
    await page.waitForSelector('input[name=pin]');
    const pinText = (await page.textContent('main')) ?? '';
    expect(pinText).toContain(words.dayPass);
    expect(pinText).not.toMatch(DOUBLED_MARK);
    await expectAccessible(page, 'PIN step');

    const pin = await createCheckoutDriver(sandbox).readPin(payment.paymentUid);
    expect(sandbox.sms({ paymentUid: payment.paymentUid })[0]?.text).toContain(words.dayPass);
    await page.fill('input[name=pin]', pin);
    await page.locator('form[action$="/consent/pin"] button').click();
    await page.waitForSelector('#return');
    const failure = (await page.textContent('main')) ?? '';
    expect(failure).toContain(words.nothingCharged);
    expect(failure).toContain('(PAY-101)');
    expect(failure).not.toContain('Charged to your mobile phone bill');
    expect(await page.locator('meta[http-equiv=refresh]').count()).toBe(0);
    await expectAccessible(page, 'failure page');
    await context.close();
  });

  it('the SMS inbox reads like a phone, the dashboard passes axe, the favicon answers', async () => {
    const { context, page } = await phone('en');
    // axe does run: an image without a text alternative is found.
    await page.setContent(
      '<!doctype html><html lang="en"><title>t</title><main><img src="/x.png"></main></html>',
    );
    expect((await axeViolations(page)).map((finding) => finding.id)).toContain('image-alt');

    const payment = await newPayment('offer_day_pass');
    await createCheckoutDriver(sandbox).pay(payment.checkoutUrl, { method: 'PIN', msisdn: '+21620000000' });
    await page.goto(`${sandbox.apiBaseUrl}/sandbox/inbox?msisdn=%2B21620000000`);
    const inbox = (await page.textContent('main')) ?? '';
    expect(inbox).toMatch(/1 Jan 2030, 00:00:00 UTC · Text to the phone \+21620000000, from Sahel Mobile/);
    expect(inbox).not.toMatch(/\bMT\b|2030-01-01T/);
    await expectAccessible(page, 'SMS inbox');
    for (const environment of [sandbox.environments.sandbox, sandbox.environments.production]) {
      await page.goto(`${environment.apiBaseUrl}/sandbox`);
      await expectAccessible(page, `${environment.name} dashboard`);
    }
    // Approve on the production dashboard: the page that shows the issued secret, once, passes too.
    await page.getByRole('button', { name: 'Approve (pass the go-live review)' }).click();
    await page.waitForURL(`${sandbox.environments.production.apiBaseUrl}/sandbox`);
    expect(await page.getByRole('alert').textContent()).toContain('Shown once: copy it now.');
    await expectAccessible(page, 'production dashboard showing the issued secret');
    const icon = await page.request.get(`${sandbox.checkoutBaseUrl}/favicon.ico`);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toBe('image/svg+xml');
    await context.close();
  });
});
