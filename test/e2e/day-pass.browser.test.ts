import type { Sandbox } from '@dcbkit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAccessLength } from '../../starters/shop/src/format-access-length.js';
import { type Language, translator } from '../../starters/shop/src/i18n.js';
import { chromiumAvailable } from '../browser/chromium.js';
import { SHOPS } from '../support/shops.js';
import { expectAccessible, screenshot } from './support/phone.js';
import { consentByPin } from './support/sandbox-checkout.js';
import { signInAs, useChromium, usePhones } from './support/walk.js';

// A day pass as a customer lives it, in each starter and each language, in Debian's Chromium on a
// phone-sized screen: bought, it waits in the account without giving access; used, it gives a day,
// and the account page says until when; the next day, the access is over. axe-core checks each page.
const WALKS: readonly { language: Language; account: string }[] = [
  { language: 'en', account: 'Amira' },
  { language: 'fr', account: 'Youssef' },
  { language: 'ar', account: 'Léa' },
];

/** The words of a message around one placeholder, to find it whatever the value (a date) is. */
function around(language: Language, key: string, placeholder: string, values: Record<string, string> = {}) {
  const marker = '\u0000';
  const [before = '', after = ''] = translator(language)(key, { ...values, [placeholder]: marker }).split(
    marker,
  );
  return { before, after };
}

describe.runIf(chromiumAvailable)('a day pass in a browser', () => {
  const browser = useChromium();

  describe.each(SHOPS)('the $name starter', ({ folder, startShop }) => {
    let shop: Awaited<ReturnType<(typeof SHOPS)[number]['startShop']>>;
    let sandbox: Sandbox;
    const phone = usePhones(browser);

    beforeAll(async () => {
      shop = await startShop({ env: {}, port: 0, logLevel: 'silent' });
      if (!shop.sandbox) throw new Error('the shop should run the embedded sandbox');
      sandbox = shop.sandbox;
    }, 60_000);

    afterAll(async () => {
      await shop?.close();
    });

    it.each(WALKS)(
      'is bought, used for a day that the account page dates, then over ($language)',
      async ({ language, account }) => {
        const t = translator(language);
        const page = await phone(language);
        await signInAs(page, shop.url, account);
        expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
        // Before buying: what a pass gives, and that it starts when used.
        expect(await page.locator('li#offer_day_pass').textContent()).toContain(
          t('offers.unitAccess', { length: formatAccessLength(86_400, language) }),
        );
        await expectAccessible(page);
        await screenshot(page, `${folder}/day-pass-offer-${language}`);

        await Promise.all([
          page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
          page
            .locator('li#offer_day_pass')
            .getByRole('button', { name: t('offers.buy', { offer: t('offer.offer_day_pass') }) })
            .click(),
        ]);
        await consentByPin(sandbox, page, '+21650000000');
        await page.waitForURL(`${shop.url}/return?**`);
        expect(await page.locator('h1').textContent()).toBe(t('return.succeeded.title'));
        // Bought, not used: the page says where to start the day, not that access is open.
        const thanks = await page.textContent('main');
        expect(thanks).toContain(t('return.succeeded.passToUse'));
        expect(thanks).not.toContain(t('return.succeeded.access'));
        await expectAccessible(page);
        await screenshot(page, `${folder}/day-pass-bought-${language}`);

        const accessRow = page
          .locator('ul.access li', { hasText: t('offer.offer_day_pass') })
          .locator('strong');
        await page.goto(`${shop.url}/account`);
        expect(await accessRow.textContent()).toBe(t('account.no'));
        expect(await page.textContent('main')).toContain(t('account.passNotInUse'));

        await Promise.all([
          page.waitForURL(`${shop.url}/account`),
          page.getByRole('button', { name: t('account.usePass') }).click(),
        ]);
        const notice = around(language, 'done.unitSpentUntil', 'until', { left: '0' });
        const said = (await page.getByRole('status').textContent()) ?? '';
        expect(said.startsWith(notice.before)).toBe(true);
        expect(said.endsWith(notice.after)).toBe(true);
        // The date the notice names is the one the access row and the card show.
        const until = said.slice(notice.before.length, said.length - notice.after.length);
        expect(until).toMatch(/\d/);
        expect(await accessRow.textContent()).toBe(t('account.yesUntil', { until }));
        expect(await page.locator('dd.until').textContent()).toBe(until);
        expect(await page.locator('.balance').textContent()).toBe(
          t('account.passesValue', { available: 0, bought: 1 }),
        );
        await expectAccessible(page);
        await screenshot(page, `${folder}/day-pass-in-use-${language}`);

        // A day later (and a minute), the day is over.
        await sandbox.advanceClock(86_400 + 60);
        await page.reload();
        expect(await accessRow.textContent()).toBe(t('account.no'));
        expect(await page.locator('dd.until').count()).toBe(0);
        await expectAccessible(page);
      },
    );
  });
});
