import type { Sandbox } from '@dcbkit/sandbox';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../browser/chromium.js';
import { SHOPS } from '../support/shops.js';
import { expectAccessible, screenshot } from './support/phone.js';
import { consentByPin } from './support/sandbox-checkout.js';
import { signInAs, signInAsOperator, useChromium, usePhones } from './support/walk.js';

const LANGUAGES = ['en', 'fr', 'ar'] as const;
type Language = (typeof LANGUAGES)[number];

/** What each language says of a free trial, on the account page and in the operations view. */
const WORDS: Record<
  Language,
  { status: string; trialEnds: string; firstCharge: string; price: RegExp; reason: string; change: string }
> = {
  en: {
    status: 'Free trial',
    trialEnds: 'Free trial ends',
    firstCharge: 'First charge',
    price: /TND\s4\.500 on .+; nothing is charged before/,
    reason: 'when the first charge is due',
    change: 'Cancelled, ends at the end of the period → Free trial',
  },
  fr: {
    status: 'Essai gratuit',
    trialEnds: 'Fin de l’essai gratuit',
    firstCharge: 'Premier prélèvement',
    price: /4,500\sTND le .+ ; rien n’est prélevé avant/,
    reason: 'date du premier prélèvement',
    change: 'Résilié, se termine à la fin de la période → Essai gratuit',
  },
  ar: {
    status: 'تجربة مجانية',
    trialEnds: 'نهاية التجربة المجانية',
    firstCharge: 'أول خصم',
    price: /في .+؛ لا يُخصم شيء قبل ذلك/,
    reason: 'موعد أول خصم',
    change: 'ملغى، ينتهي في نهاية الفترة ← تجربة مجانية',
  },
};

// Issue 38: a free trial cancelled at its end and resumed, walked in Chromium on a phone in each
// language. Nothing is charged before the trial's end: the account page and the operations view
// say the trial runs until then and when the first charge comes, never "Active".
describe.runIf(chromiumAvailable)('a resumed free trial in a browser', () => {
  const browser = useChromium();

  describe.each(SHOPS)('the $name starter', ({ folder, startShop }) => {
    let shop: Awaited<ReturnType<(typeof SHOPS)[number]['startShop']>>;
    let sandbox: Sandbox;
    let password: string;
    let trialEnds: string;
    const phone = usePhones(browser);

    /** The text of a row of a card's terms, by its term. */
    const term = (page: Page, name: string) =>
      page.locator('dl.terms > div', { has: page.locator('dt', { hasText: name }) }).locator('dd');

    beforeAll(async () => {
      shop = await startShop({ env: {}, port: 0, logLevel: 'silent' });
      if (!shop.sandbox || !shop.operatorAccess) throw new Error('the shop should run the embedded sandbox');
      sandbox = shop.sandbox;
      password = shop.operatorAccess.password;

      // Amira subscribes to Premium (a free trial), cancels at its end, then resumes.
      const page = await phone('en');
      await signInAs(page, shop.url, 'Amira');
      await Promise.all([
        page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
        page
          .locator('li#offer_premium_monthly')
          .getByRole('button', { name: /Subscribe/ })
          .click(),
      ]);
      await consentByPin(sandbox, page, '+21620000000');
      await page.waitForURL(`${shop.url}/return?**`);
      await page.goto(`${shop.url}/account`);
      trialEnds = (await term(page, 'Free trial ends').textContent()) ?? '';
      expect(trialEnds).not.toBe('');
      await page.getByRole('link', { name: 'Cancel at the end of the period' }).click();
      await Promise.all([
        page.waitForURL(`${shop.url}/account`),
        page.getByRole('button', { name: 'Yes, cancel at the end of the period' }).click(),
      ]);
      await page.getByRole('link', { name: 'Resume' }).click();
      await Promise.all([
        page.waitForURL(`${shop.url}/account`),
        page.getByRole('button', { name: 'Yes, resume' }).click(),
      ]);
      expect(await page.getByRole('status').textContent()).toContain('runs again');
      await sandbox.deliverDue();
    }, 60_000);

    afterAll(async () => {
      await shop?.close();
    });

    it.each(LANGUAGES)(
      'the account page says the trial runs to its end, then the first charge (%s)',
      async (language) => {
        const words = WORDS[language];
        const page = await phone(language);
        await signInAs(page, shop.url, 'Amira');
        await page.goto(`${shop.url}/account`);
        expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
        expect(await page.locator('.status').textContent()).toBe(words.status);
        const ends = (await term(page, words.trialEnds).textContent()) ?? '';
        const charge = (await term(page, words.firstCharge).textContent()) ?? '';
        expect(charge).toMatch(words.price);
        // The first charge comes when the trial ends.
        expect(charge).toContain(ends);
        if (language === 'en') expect(ends).toBe(trialEnds);
        // A trial has no paid period to show, and the subscriber may still cancel it.
        expect(await page.locator('dl.terms dt').allTextContents()).toHaveLength(4);
        expect(await page.locator('a[href$="/cancel?when=PERIOD_END"]').count()).toBe(1);
        await expectAccessible(page);
        await screenshot(page, `${folder}/trial-resumed-account-${language}`);
      },
    );

    it.each(LANGUAGES)('the operations view says the same of the account (%s)', async (language) => {
      const words = WORDS[language];
      const page = await phone(language);
      await signInAsOperator(page, shop.url, password);
      await page.goto(`${shop.url}/ops/account?key=demo-amira&read=1`);
      expect(await page.locator('dd.status').first().textContent()).toBe(words.status);
      expect(await page.locator('dd.reason').first().textContent()).toContain(words.reason);
      // The service, read, agrees: no drift.
      expect(await page.locator('dd.service').first().textContent()).toBe(words.status);
      expect(await page.locator('p.drift').count()).toBe(0);
      const history = page.locator('table.data', { has: page.locator('caption') }).first();
      expect(await history.textContent()).toContain(words.change);
      await expectAccessible(page);
      await screenshot(page, `${folder}/trial-resumed-ops-${language}`);
    });
  });
});
