import type { Sandbox } from '@dcbkit/sandbox';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../browser/chromium.js';
import { SHOPS } from '../support/shops.js';
import { expectAccessible, newPhone, screenshot } from './support/phone.js';
import { consentByPin } from './support/sandbox-checkout.js';
import { signInAs, signInAsOperator, useChromium } from './support/walk.js';

const LANGUAGES = ['en', 'fr', 'ar'] as const;
type Language = (typeof LANGUAGES)[number];

/** A laptop's screen, where the embedded checkout was cut off. */
const LAPTOP = { width: 1280, height: 800 };
/**
 * The most a phone's header (with the sandbox banner) may take before the page's own content: two
 * rows of links and a one-line banner, and a row of its own for a long shop name (French). It took
 * about 190 px before issue 38.
 */
const PHONE_HEADER_MAX = 145;

const DEMO = { en: 'Amira', fr: 'Youssef', ar: 'Léa' } as const;
const READ_FROM_THE_SERVICE = {
  en: 'read from the service on',
  fr: 'lu auprès du service le',
  ar: 'قُرئ من الخدمة في',
};

// Issue 38's "look": how the pages sit on a screen, walked in Chromium in each language. The
// embedded checkout's frame holds a whole step with its button in view at 1280x800; a phone's
// header leaves the screen to the page; the operations footer lines up with its column; "Last
// event" names the event in words, with a date, never the raw `read:` marker.
describe.runIf(chromiumAvailable)('the look of the pages in a browser', () => {
  const browser = useChromium();

  describe.each(SHOPS)('the $name starter', ({ folder, startShop }) => {
    let shop: Awaited<ReturnType<(typeof SHOPS)[number]['startShop']>>;
    let sandbox: Sandbox;
    let password: string;
    const contexts: BrowserContext[] = [];

    async function track(context: BrowserContext): Promise<Page> {
      contexts.push(context);
      return context.newPage();
    }
    const laptop = (language: Language) =>
      browser()
        .newContext({ viewport: LAPTOP, locale: language, extraHTTPHeaders: { 'accept-language': language } })
        .then(track);
    const phone = (language: Language) => newPhone(browser(), language).then(track);
    const signIn = (page: Page, language: Language) => signInAs(page, shop.url, DEMO[language]);

    beforeAll(async () => {
      shop = await startShop({ env: {}, port: 0, logLevel: 'silent' });
      if (!shop.sandbox || !shop.operatorAccess) throw new Error('the shop should run the embedded sandbox');
      sandbox = shop.sandbox;
      password = shop.operatorAccess.password;
    }, 60_000);

    afterAll(async () => {
      for (const context of contexts) await context.close();
      await shop?.close();
    });

    it.each(LANGUAGES)(
      'shows a whole checkout step in the embedded frame at 1280x800, its button in view (%s)',
      async (language) => {
        const page = await laptop(language);
        await signIn(page, language);
        await page.locator('li#offer_full_unlock form[action="/checkout"] button:not(.primary)').click();
        await page.locator('iframe.checkout').waitFor();
        const frame = await checkoutFrame(page);
        const button = frame.locator('form[action$="/number"] button').first();
        await button.waitFor();
        // No scrollbar inside the frame: the step fits it whole.
        const fits = await frame.evaluate(() => {
          // The page's globals, typed here: the tests compile without the DOM's types.
          const view = globalThis as unknown as {
            innerHeight: number;
            document: { documentElement: { scrollHeight: number } };
          };
          return view.document.documentElement.scrollHeight <= view.innerHeight;
        });
        expect(fits).toBe(true);
        // And the button shows without scrolling the page.
        const box = await button.boundingBox();
        expect(box).not.toBeNull();
        expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(LAPTOP.height);
        await expectAccessible(page);
        await page.screenshot({ path: screenshotPath(`${folder}/look-embedded-1280-${language}`) });
      },
    );

    it.each(LANGUAGES)(
      'leaves a phone’s screen to the page: the header and the banner are short (%s)',
      async (language) => {
        const page = await phone(language);
        await signIn(page, language);
        await screenshot(page, `${folder}/look-phone-header-${language}`);
        const header = await page.locator('header.site').boundingBox();
        expect(header?.height ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(PHONE_HEADER_MAX);
        // Every link of the header is still a target of at least 40 px.
        for (const link of await page.locator('header.site nav a').all()) {
          expect((await link.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(40);
        }
        expect(await page.locator('p.sandbox[role=note] strong').isVisible()).toBe(true);
        await expectAccessible(page);
      },
    );

    it.each(LANGUAGES)(
      'lines the operations footer up with its column, and says the last event in words (%s)',
      async (language) => {
        // A day pass whose webhook does not land: the return page's read of the payment is all the kit knows.
        const customer = await phone(language);
        await signIn(customer, language);
        sandbox.setWebhookUrl('http://127.0.0.1:9/unreachable');
        try {
          await Promise.all([
            customer.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
            customer.locator('li#offer_day_pass form[action="/checkout"] button.primary').click(),
          ]);
          await consentByPin(sandbox, customer, '+21620000000');
          await customer.waitForURL(`${shop.url}/return?**`);
        } finally {
          sandbox.setWebhookUrl(`${shop.url}/webhooks/dcb`);
        }

        const page = await laptop(language);
        await signInAsOperator(page, shop.url, password);
        const account = `demo-${DEMO[language].toLowerCase().replace('é', 'e')}`;
        await page.goto(`${shop.url}/ops/account?key=${account}`);
        const card = page.locator('section.card', { hasText: 'prod_day_pass' });
        const lastEvent = card
          .locator('dl.terms > div')
          .filter({ has: page.locator('span.code', { hasText: /^payment\./ }) })
          .locator('dd');
        const said = ((await lastEvent.textContent()) ?? '').replace(/\s+/g, ' ');
        expect(said).not.toContain('read:');
        expect(said).toContain('payment.succeeded');
        expect(said).toContain(READ_FROM_THE_SERVICE[language]);
        expect(said).toMatch(/2026|2030|\d{4}/);

        // The footer spans the main column's width, edge to edge (both are blocks: left to right
        // or right to left, their text starts at the same edge).
        const main = await page.locator('main h1').boundingBox();
        const footer = await page.locator('footer.site p').boundingBox();
        if (!main || !footer) throw new Error('no main heading or footer');
        expect(Math.abs(footer.x - main.x)).toBeLessThanOrEqual(1);
        expect(Math.abs(footer.width - main.width)).toBeLessThanOrEqual(1);
        await expectAccessible(page);
        await screenshot(page, `${folder}/look-ops-account-1280-${language}`);
      },
    );

    it.each(LANGUAGES)(
      'keeps each product’s name on one line of a phone’s account page, a pass in use too (%s)',
      async (language) => {
        // Issue 54: "Day pass" wrapped onto two lines at 390 px beside "Yes, until <date>". Last:
        // its pass, its webhook landed, would be the last event the footer test reads.
        const page = await phone(language);
        await signIn(page, language);
        await Promise.all([
          page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
          page.locator('li#offer_day_pass form[action="/checkout"] button.primary').click(),
        ]);
        await consentByPin(sandbox, page, '+21620000000');
        await page.waitForURL(`${shop.url}/return?**`);
        await page.goto(`${shop.url}/account`);
        await Promise.all([
          page.waitForURL(`${shop.url}/account**`),
          page.locator('form[action="/account/passes/prod_day_pass/use"] button').first().click(),
        ]);
        await page.goto(`${shop.url}/account`);
        expect(page.viewportSize()?.width).toBe(390);
        const names = page.locator('ul.access li > span');
        expect(await names.count()).toBeGreaterThan(0);
        for (const name of await names.all()) {
          // The lines its text takes: one rectangle per line box.
          const lines = await name.evaluate((element) => {
            const range = (
              element.ownerDocument as unknown as {
                createRange(): {
                  selectNodeContents(node: unknown): void;
                  getClientRects(): { length: number };
                };
              }
            ).createRange();
            range.selectNodeContents(element);
            return range.getClientRects().length;
          });
          expect(lines, (await name.textContent()) ?? '').toBe(1);
        }
        await expectAccessible(page);
        await screenshot(page, `${folder}/look-account-390-${language}`);
      },
    );
  });
});

/** The embedded checkout's frame, once it has loaded the checkout. */
async function checkoutFrame(page: Page) {
  const element = await page.locator('iframe.checkout').elementHandle();
  const frame = await element?.contentFrame();
  if (!frame) throw new Error('the checkout frame is missing');
  await frame.waitForLoadState();
  return frame;
}

/** Where `screenshot` puts a file: the viewport only, for the laptop's first screen. */
function screenshotPath(name: string): string {
  return new URL(`artifacts/${name}.png`, import.meta.url).pathname;
}
