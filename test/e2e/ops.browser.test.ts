import type { Sandbox } from '@dcbkit/sandbox';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium } from '../browser/chromium.js';
import { SHOPS } from '../support/shops.js';
import { expectAccessible, newPhone, screenshot } from './support/phone.js';
import { consentByPin } from './support/sandbox-checkout.js';

/** What the walk needs of the shop on one framework (test/support/shops.ts). */
interface Starter {
  name: string;
  /** Its overlay's folder under starters/shop/src/framework/, and its screenshots' folder under artifacts/. */
  folder: string;
  startShop(options: { env: Record<string, string>; port: number; logLevel: string }): Promise<{
    url: string;
    sandbox: Sandbox | undefined;
    operatorAccess: { password: string; generated: boolean } | undefined;
    close(): Promise<void>;
  }>;
}

const STARTERS: Starter[] = SHOPS;

const LANGUAGES = ['en', 'fr', 'ar'] as const;

// Each starter's operations view in Debian's Chromium, on a phone-sized screen, in each language:
// the operator signs in with the password the embedded sandbox made for the run, finds the account
// of a customer who subscribed through the sandbox's checkout, reads its history, asks the service
// (a missed renewal shows as drift), reconciles it, and opens the webhook health and the runs.
// axe-core checks every page. The starters are twins: the same walk, the same assertions.
describe.runIf(chromiumAvailable)('the operations view in a browser', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  describe.each(STARTERS)('the $name starter', ({ folder, startShop }) => {
    let shop: Awaited<ReturnType<Starter['startShop']>>;
    let sandbox: Sandbox;
    let password: string;
    const contexts: BrowserContext[] = [];

    async function phone(language: (typeof LANGUAGES)[number]): Promise<Page> {
      const context = await newPhone(browser, language);
      contexts.push(context);
      return context.newPage();
    }

    beforeAll(async () => {
      // No DCB_* variable and no OPERATOR_PASSWORD: the embedded sandbox, with a password per run.
      shop = await startShop({ env: {}, port: 0, logLevel: 'silent' });
      if (!shop.sandbox) throw new Error('the shop should run the embedded sandbox');
      if (!shop.operatorAccess?.generated) throw new Error('the embedded sandbox should make a password');
      sandbox = shop.sandbox;
      password = shop.operatorAccess.password;

      // Amira subscribes to Premium (a free trial) through the sandbox's checkout.
      const customer = await phone('en');
      await customer.goto(`${shop.url}/sign-in`);
      await customer.getByLabel('Amira').check();
      await Promise.all([
        customer.waitForURL(`${shop.url}/`),
        customer.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      await Promise.all([
        customer.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
        customer
          .locator('li#offer_premium_monthly')
          .getByRole('button', { name: /Subscribe/ })
          .click(),
      ]);
      await consentByPin(sandbox, customer, '+21620000000');
      await customer.waitForURL(`${shop.url}/return?**`);
      expect(await customer.locator('h1').textContent()).toBe('Thank you');

      // The trial converts at the service while the shop's webhook address is unreachable: the
      // store still says "free trial", the service "active". A drift for the operator to repair.
      sandbox.setWebhookUrl('http://127.0.0.1:9/unreachable');
      await sandbox.advanceClock(8 * 86_400);

      // A delivery signed with another secret: every operations page then warns about it.
      const forged = await fetch(`${shop.url}/webhooks/dcb`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'service-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
        },
        body: JSON.stringify({ id: 'evt_forged', event: 'payment.succeeded' }),
      });
      expect(forged.status).toBe(401);
    }, 60_000);

    afterAll(async () => {
      for (const context of contexts) await context.close();
      await shop?.close();
    });

    it.each(LANGUAGES)(
      'signs in as operator and walks the operations view, each page accessible (%s)',
      async (language) => {
        const page = await phone(language);
        const expectPage = async (name: string) => {
          expect(await page.locator('html').getAttribute('lang')).toBe(language);
          expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
          // The notice about the refused signature, on every page of a signed-in operator.
          if (!name.startsWith('sign-in')) {
            expect(await page.locator('.alert[role=alert]').textContent()).toContain(
              'DCB_WEBHOOK_SECRET=whsec_new,whsec_old',
            );
          }
          await expectAccessible(page);
          await screenshot(page, `${folder}/ops-${name}-${language}`);
        };

        // Not signed in as operator: the operator sign-in, and a wrong password refused.
        await page.goto(`${shop.url}/ops`);
        expect(new URL(page.url()).pathname).toBe('/ops/sign-in');
        await expectPage('sign-in');
        await page.locator('#operator-password').fill('not the password');
        await page.locator('form[action="/ops/sign-in"] button').click();
        await page.locator('p.alert[role=alert]').waitFor();
        await expectPage('sign-in-refused');
        await page.locator('#operator-password').fill(password);
        await Promise.all([
          page.waitForURL(`${shop.url}/ops`),
          page.locator('form[action="/ops/sign-in"] button').click(),
        ]);
        expect(await page.locator('#health-title').count()).toBe(1);
        await expectPage('home');

        // Find the account: its subscription, the reason in words, and the history of the purchase.
        await page.locator('#account-key').fill('demo-amira');
        await Promise.all([
          page.waitForURL(`${shop.url}/ops/account?key=demo-amira`),
          page.locator('form[role=search][action="/ops/account"] button').click(),
        ]);
        const history = page.locator('table.data', { has: page.locator('caption') }).first();
        expect(await history.locator('tbody tr').count()).toBeGreaterThan(0);
        expect(await history.textContent()).toContain('payment.succeeded');
        if (language === 'en') {
          expect(await page.locator('h1').textContent()).toBe('Account demo-amira');
          expect(await page.locator('dd.reason').first().textContent()).toContain('free trial');
          expect(await history.textContent()).toContain('Webhook');
        }
        await expectPage('account');

        // Ask the service: in the first walk, the renewal the webhooks missed shows as drift.
        await Promise.all([
          page.waitForURL(`${shop.url}/ops/account?key=demo-amira&read=1`),
          page.locator('form[action="/ops/account"] button').click(),
        ]);
        expect(await page.locator('dd.service').count()).toBe(1);
        if (language === 'en') {
          expect(await page.locator('p.drift').textContent()).toContain('Drift');
        } else {
          expect(await page.locator('p.drift').count()).toBe(0);
        }
        await expectPage('account-read');

        // Reconcile it now: the result says what changed, and the history gains the read.
        await Promise.all([
          page.waitForURL(`${shop.url}/ops/account/reconcile`),
          page.locator('form[action="/ops/account/reconcile"] button').click(),
        ]);
        expect(await page.locator('#result-title').count()).toBe(1);
        if (language === 'en') {
          const result = page.locator('section.result');
          expect(await result.locator('table tbody tr').count()).toBe(1);
          expect(await result.textContent()).toContain('Free trial → Active');
          expect(await page.locator('dd.status').first().textContent()).toBe('Active');
          expect(await page.locator('table.data').nth(1).textContent()).toContain('Reconciliation');
          // Webhooks reach the shop again from now on.
          sandbox.setWebhookUrl(`${shop.url}/webhooks/dcb`);
        }
        await expectPage('account-reconciled');

        // The webhook health and the recent deliveries.
        await Promise.all([
          page.waitForURL(`${shop.url}/ops/webhooks`),
          page.locator('nav a[href="/ops/webhooks"]').click(),
        ]);
        expect(await page.locator('table.data tbody tr').count()).toBeGreaterThan(0);
        expect(await page.locator('span.code', { hasText: 'signature_mismatch' }).count()).toBe(1);
        await expectPage('webhooks');

        // The reconciler's runs: the one at start, and the operators' runs for this account.
        await Promise.all([
          page.waitForURL(`${shop.url}/ops/reconcile`),
          page.locator('nav a[href="/ops/reconcile"]').click(),
        ]);
        expect(await page.locator('main section.card').count()).toBeGreaterThanOrEqual(2);
        await expectPage('reconcile');
      },
    );
  });
});
