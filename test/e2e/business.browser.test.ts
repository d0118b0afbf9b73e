import { fileURLToPath } from 'node:url';
import type { Sandbox } from '@dcbkit/sandbox';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium } from '../browser/chromium.js';
import { SHOPS } from '../support/shops.js';
import { expectAccessible, newPhone, screenshot } from './support/phone.js';
import { consentByPin } from './support/sandbox-checkout.js';

const LANGUAGES = ['en', 'fr', 'ar'] as const;
const DOCS_IMAGE = fileURLToPath(new URL('../../docs/images/ops-business.png', import.meta.url));
const CHART_IDS = ['active', 'growth', 'renewals', 'churn', 'collected'];

// The Business page in Debian's Chromium, after history planted through the embedded sandbox: a
// free trial that converts and renews as the sandbox's clock moves, and a day pass. The page is
// the same on every framework (its routes are data, src/web/shop-route.ts; the HTTP tests run it
// on both), so the browser walks it once, on Express: each language, axe-core, the charts drawn.
describe.runIf(chromiumAvailable)('the Business page in a browser', () => {
  const { startShop } = SHOPS[0] as (typeof SHOPS)[number];
  let browser: Browser;
  let shop: Awaited<ReturnType<typeof startShop>>;
  let sandbox: Sandbox;
  let password: string;
  const contexts: BrowserContext[] = [];

  async function phone(language: (typeof LANGUAGES)[number]): Promise<Page> {
    const context = await newPhone(browser, language);
    contexts.push(context);
    return context.newPage();
  }

  async function buy(page: Page, offerUid: string, msisdn: string): Promise<void> {
    await page.goto(shop.url);
    await Promise.all([
      page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
      page.locator(`li#${offerUid}`).locator('button[type=submit]').first().click(),
    ]);
    await consentByPin(sandbox, page, msisdn);
    await page.waitForURL(`${shop.url}/return?**`);
    expect(await page.locator('h1').textContent()).toBe('Thank you');
  }

  async function signInAsOperator(page: Page): Promise<void> {
    await page.goto(`${shop.url}/ops/sign-in`);
    await page.locator('#operator-password').fill(password);
    await Promise.all([
      page.waitForURL(`${shop.url}/ops`),
      page.locator('form[action="/ops/sign-in"] button').click(),
    ]);
  }

  /** A column of a chart's table, summed over its buckets (the numbers as the page's language writes them). */
  async function columnTotal(page: Page, chartId: string, column: number): Promise<number> {
    const cells = await page
      .locator(`section#${chartId} tbody tr td:nth-of-type(${column})`)
      .allTextContents();
    const digits = (text: string) =>
      Number(text.replace(/[٠-٩]/g, (digit) => String(digit.charCodeAt(0) - 0x0660)).replace(/[^0-9]/g, ''));
    return cells.reduce((sum, cell) => sum + digits(cell), 0);
  }

  beforeAll(async () => {
    browser = await launchChromium();
    shop = await startShop({ env: {}, port: 0, logLevel: 'silent' });
    if (!shop.sandbox || !shop.operatorAccess) throw new Error('the shop should run the embedded sandbox');
    sandbox = shop.sandbox;
    password = shop.operatorAccess.password;

    // Amira starts Premium's free trial and buys a day pass.
    const customer = await phone('en');
    await customer.goto(`${shop.url}/sign-in`);
    await customer.getByLabel('Amira').check();
    await Promise.all([
      customer.waitForURL(`${shop.url}/`),
      customer.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await buy(customer, 'offer_premium_monthly', '+21620000000');
    await buy(customer, 'offer_day_pass', '+21620000000');
    // Forty days, a day at a time: the trial converts on day 7 and the subscription renews a month later.
    for (let day = 0; day < 40; day++) {
      await sandbox.advanceClock(86_400);
      await sandbox.deliverDue();
    }
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await shop?.close();
    await browser?.close();
  });

  it.each(LANGUAGES)('shows the planted numbers as charts and tables, accessible (%s)', async (language) => {
    const page = await phone(language);
    // A script the CSP blocked, or Chart.js failing, shows in the console first.
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await signInAsOperator(page);
    await Promise.all([
      page.waitForURL(`${shop.url}/ops/business`),
      page.locator('nav a[href="/ops/business"]').click(),
    ]);
    expect(await page.locator('html').getAttribute('lang')).toBe(language);
    expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
    expect(await page.locator('nav a[href="/ops/business"]').getAttribute('aria-current')).toBe('page');

    // Every chart drawn by Chart.js on its canvas, in the page's direction.
    // The canvases are in the HTML; Chart.js (a deferred script) has drawn on each once getChart finds it.
    const drawn = await page.evaluate(() => {
      // The page's globals, typed here: the tests compile without the DOM's types.
      type Canvas = { id: string; width: number };
      type ChartJs = {
        getChart(canvas: Canvas): { options: { plugins: { legend: { rtl: boolean } } } } | undefined;
      };
      const page = globalThis as unknown as {
        Chart?: ChartJs;
        document: { querySelectorAll(selector: string): Iterable<Canvas> };
      };
      return [...page.document.querySelectorAll('canvas')].map((canvas) => ({
        id: canvas.id,
        width: canvas.width,
        rtl: page.Chart?.getChart(canvas)?.options.plugins.legend.rtl,
      }));
    });
    expect(drawn.map(({ id }) => id)).toEqual(CHART_IDS.map((id) => `chart-${id}`));
    for (const canvas of drawn) {
      expect(canvas.width).toBeGreaterThan(100);
      expect(canvas.rtl).toBe(language === 'ar');
    }

    // The tables: the trial started, converted, renewed; the pass and both charges collected.
    expect(await columnTotal(page, 'growth', 2)).toBe(1);
    expect(await columnTotal(page, 'growth', 3)).toBe(1);
    expect(await columnTotal(page, 'renewals', 1)).toBe(1);
    expect(await columnTotal(page, 'renewals', 2)).toBe(0);
    // 1.000 + 4.500 + 4.500 TND, written in minor units once the separators are gone.
    expect(await columnTotal(page, 'collected', 1)).toBe(10_000);
    const active = await page.locator('section#active tbody tr:last-child td').textContent();
    expect(active?.trim()).toBe(new Intl.NumberFormat(language).format(1));

    expect(consoleErrors).toEqual([]);
    await expectAccessible(page);
    await screenshot(page, `express/ops-business-${language}`);
  });

  it('keeps a view in the address: the form asks again by month, and the CSV has the same rows', async () => {
    const page = await phone('en');
    await signInAsOperator(page);
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.goto(`${shop.url}/ops/business`);
    await page.locator('#business-interval').selectOption('month');
    await Promise.all([
      page.waitForURL(/\/ops\/business\?.*interval=month/),
      page.locator('form.business-form button').click(),
    ]);
    expect(await page.locator('canvas').count()).toBe(5);
    expect(await columnTotal(page, 'growth', 2)).toBe(1);
    const csvHref = await page.locator('a[href^="/ops/business.csv"]').getAttribute('href');
    expect(csvHref).toContain('interval=month');
    const csv = await page.evaluate(async (href) => (await fetch(href)).text(), csvHref ?? '');
    const premium = csv.split('\r\n').filter((line) => line.includes(',offer_premium_monthly,'));
    expect(premium.length).toBeGreaterThanOrEqual(2);
    await expectAccessible(page);
    // The docs' picture of the page (docs/operations.md, the shop's README).
    await page.screenshot({ path: DOCS_IMAGE, fullPage: true });
  });
});
