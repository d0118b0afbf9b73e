import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Sandbox, startSandbox } from '@dcbkit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../browser/chromium.js';
import { SHOPS } from '../support/shops.js';
import { expectAccessible, screenshot } from './support/phone.js';
import { signInAs, useChromium, usePhones } from './support/walk.js';

const LANGUAGES = ['en', 'fr', 'ar'] as const;
type Language = (typeof LANGUAGES)[number];

/** Each language's walk: who signs in, with which line, and what the banner and the PIN's SMS say. */
const WALKS: Record<Language, { name: string; msisdn: string; banner: string; sms: RegExp }> = {
  en: {
    name: 'Amira',
    msisdn: '+21620000011',
    banner: 'Sandbox: no money moves.',
    sms: /Free for 7 days, then TND\s4\.500 per month/,
  },
  fr: {
    name: 'Youssef',
    msisdn: '+21620000012',
    banner: 'Bac à sable : aucun argent ne circule.',
    sms: /Gratuit pendant 7 jours, puis 4,500\sTND par mois/,
  },
  ar: {
    name: 'Léa',
    msisdn: '+21620000013',
    banner: 'بيئة تجريبية: لا تُدفع أي أموال.',
    sms: /مجانًا لمدة .+، ثم/,
  },
};

// Issue 38: the shop against the standalone sandbox (a process of its own, as the real service
// is, here started beside the shop), walked in Chromium on a phone in each language. Its sandbox
// environment moves no money, so the banner says so as on the embedded sandbox; and the PIN's SMS
// for a free trial quotes the trial's terms, not the price as if charged today.
describe.runIf(chromiumAvailable)('the shop against the standalone sandbox in a browser', () => {
  const browser = useChromium();

  describe.each(SHOPS)('the $name starter', ({ folder, startShop }) => {
    let sandbox: Sandbox;
    let shop: Awaited<ReturnType<(typeof SHOPS)[number]['startShop']>>;
    let dataDir: string;
    const phone = usePhones(browser);

    beforeAll(async () => {
      sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
      dataDir = await mkdtemp(join(tmpdir(), 'shop-standalone-'));
      shop = await startShop({
        env: {
          DCB_ENV: 'sandbox',
          DCB_API_BASE_URL: sandbox.apiBaseUrl,
          DCB_CHECKOUT_BASE_URL: sandbox.checkoutBaseUrl,
          DCB_CLIENT_ID: sandbox.credentials.clientId,
          DCB_CLIENT_SECRET: sandbox.credentials.clientSecret,
          DCB_WEBHOOK_SECRET: sandbox.credentials.webhookSecret,
          SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
          DATA_DIR: dataDir,
        },
        port: 0,
        logLevel: 'silent',
      });
      expect(shop.sandbox).toBeUndefined();
      sandbox.setWebhookUrl(`${shop.url}/webhooks/dcb`);
    }, 60_000);

    afterAll(async () => {
      await shop?.close();
      await sandbox?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it.each(LANGUAGES)(
      'says no money moves, and texts a trial’s terms with its PIN (%s)',
      async (language) => {
        const walk = WALKS[language];
        const page = await phone(language);
        await signInAs(page, shop.url, walk.name);
        expect(await page.locator('html').getAttribute('lang')).toBe(language);
        expect(await page.locator('p.sandbox[role=note]').textContent()).toContain(walk.banner);
        await expectAccessible(page);
        await screenshot(page, `${folder}/standalone-offers-${language}`);

        await Promise.all([
          page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
          page.locator('li#offer_premium_monthly form[action="/checkout"] button.primary').click(),
        ]);
        await page.locator('input[name=msisdn]').fill(walk.msisdn);
        await page.locator('input[name=network][value=WIFI]').check();
        await page.locator('form[action$="/number"] button').first().click();
        await page.locator('input[name=pin]').waitFor();

        // The SMS inbox the checkout links to, as the subscriber opens it.
        const inbox = await phone(language);
        await inbox.goto(`${sandbox.apiBaseUrl}/sandbox/inbox?msisdn=${encodeURIComponent(walk.msisdn)}`);
        const sms = (await inbox.locator('main').textContent()) ?? '';
        expect(sms).toMatch(walk.sms);
        await screenshot(inbox, `${folder}/standalone-sms-${language}`);

        const paymentUid = new URL(page.url()).pathname.split('/')[2] ?? '';
        const pin = sandbox.sms({ paymentUid })[0]?.text.match(/^[0-9]+/)?.[0] ?? '';
        expect(sms).toContain(pin);
        await page.locator('input[name=pin]').fill(pin);
        await Promise.all([
          page.waitForURL(`${shop.url}/return?**`),
          page.locator('form[action$="/consent/pin"] button').first().click(),
        ]);
        expect(await page.locator('p.sandbox[role=note]').textContent()).toContain(walk.banner);
        await page.goto(`${shop.url}/account`);
        expect(await page.locator('.first-charge').count()).toBe(1);
        await expectAccessible(page);
        await screenshot(page, `${folder}/standalone-account-${language}`);
      },
    );
  });
});
