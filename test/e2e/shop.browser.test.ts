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
    close(): Promise<void>;
  }>;
}

const STARTERS: Starter[] = SHOPS;

// Each starter on its embedded sandbox, walked page by page in Debian's Chromium on a phone-sized
// screen: every page type is checked with axe-core and photographed (artifacts/<starter>/). The
// starters are twins: the same walk, the same assertions. One browser serves both walks.
describe.runIf(chromiumAvailable)('the starters in a browser', () => {
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
    const contexts: BrowserContext[] = [];

    beforeAll(async () => {
      // No DCB_* variable: the embedded sandbox, as `pnpm start` runs it.
      shop = await startShop({ env: {}, port: 0, logLevel: 'silent' });
      if (!shop.sandbox) throw new Error('the shop should run the embedded sandbox');
      sandbox = shop.sandbox;
    }, 60_000);

    afterAll(async () => {
      for (const context of contexts) await context.close();
      await shop?.close();
    });

    async function phone(language: 'en' | 'fr' | 'ar' = 'en'): Promise<Page> {
      const context = await newPhone(browser, language);
      contexts.push(context);
      return context.newPage();
    }

    async function signIn(page: Page, name: string): Promise<void> {
      await page.goto(`${shop.url}/sign-in`);
      await page.getByLabel(name).check();
      await Promise.all([
        page.waitForURL(`${shop.url}/`),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
    }

    /** The offer's card on the offers page. */
    const offerCard = (page: Page, offerUid: string) => page.locator(`li#${offerUid}`);

    it('signs in and shows each offer with its price, period and trial before any checkout button', async () => {
      const page = await phone();
      await page.goto(shop.url);
      await expectAccessible(page);
      await screenshot(page, `${folder}/offers-signed-out`);
      expect(await page.locator('form[action="/checkout"]').count()).toBe(0);

      await page.goto(`${shop.url}/sign-in`);
      await expectAccessible(page);
      await screenshot(page, `${folder}/sign-in`);
      await signIn(page, 'Amira');

      const premium = offerCard(page, 'offer_premium_monthly');
      // Intl puts a no-break space between currency and amount.
      const text = ((await premium.textContent()) ?? '').replace(/\s+/g, ' ');
      // TND has three decimals: 4500 millimes are 4.500 TND.
      expect(text).toContain('TND 4.500');
      expect(text).toContain('per month');
      expect(text).toContain('7 days');
      expect((await offerCard(page, 'offer_full_unlock').textContent())?.replace(/\s+/g, ' ')).toContain(
        'TND 15.000',
      );
      // The terms come first in each card, the checkout button after them.
      const order = await premium.evaluate((card) => {
        const terms = card.querySelector('dl');
        const button = card.querySelector('form button');
        return terms && button
          ? terms.compareDocumentPosition(button) & 4 /* DOCUMENT_POSITION_FOLLOWING */
          : 0;
      });
      expect(order).toBeTruthy();
      await expectAccessible(page);
      await screenshot(page, `${folder}/offers`);
    });

    it('subscribes by PIN, returns with access, opens the premium page, cancels at period end, resumes and cancels now', async () => {
      const page = await phone();
      await signIn(page, 'Amira');

      // Without access, the premium page sends the visitor to the offers.
      await page.goto(`${shop.url}/premium`);
      expect(new URL(page.url()).pathname).toBe('/');
      expect(await page.getByRole('status').textContent()).toContain('needs the Premium subscription');

      await Promise.all([
        page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
        offerCard(page, 'offer_premium_monthly')
          .getByRole('button', { name: /Subscribe/ })
          .click(),
      ]);
      await screenshot(page, `${folder}/sandbox-checkout`);
      await consentByPin(sandbox, page, '+21620000000');
      await page.waitForURL(`${shop.url}/return?**`);
      expect(await page.locator('h1').textContent()).toBe('Thank you');
      expect(await page.textContent('main')).toContain('You have access now.');
      await expectAccessible(page);
      await screenshot(page, `${folder}/return-succeeded`);

      await Promise.all([
        page.waitForURL(`${shop.url}/premium`),
        page.getByRole('link', { name: 'Open the premium page' }).click(),
      ]);
      expect(await page.locator('h1').textContent()).toBe('Premium');
      await expectAccessible(page);
      await screenshot(page, `${folder}/premium`);

      // Cancel at the end of the period: a confirmation first, then access is kept.
      await page.goto(`${shop.url}/account`);
      expect(await page.locator('.status').textContent()).toBe('Free trial');
      /** The date a row of the subscription's terms shows. */
      const termDate = (term: string) =>
        page
          .locator('dl.terms > div', { has: page.locator('dt', { hasText: term }) })
          .locator('dd')
          .textContent();
      const trialEnds = await termDate('Free trial ends');
      expect(trialEnds).toBeTruthy();
      await expectAccessible(page);
      await screenshot(page, `${folder}/account-subscribed`);
      await page.getByRole('link', { name: 'Cancel at the end of the period' }).click();
      expect(await page.locator('h1').textContent()).toBe('Cancel at the end of the period?');
      await expectAccessible(page);
      await screenshot(page, `${folder}/confirm-cancel-period-end`);
      await Promise.all([
        page.waitForURL(`${shop.url}/account`),
        page.getByRole('button', { name: 'Yes, cancel at the end of the period' }).click(),
      ]);
      expect(await page.getByRole('status').textContent()).toContain('You keep access until then');
      expect(await page.locator('.status').textContent()).toBe('Cancelled, ends at the end of the period');
      await screenshot(page, `${folder}/account-pre-canceled`);
      await page.goto(`${shop.url}/premium`);
      expect(new URL(page.url()).pathname).toBe('/premium');

      // Resume, confirmed.
      await page.goto(`${shop.url}/account`);
      await page.getByRole('link', { name: 'Resume' }).click();
      await expectAccessible(page);
      await Promise.all([
        page.waitForURL(`${shop.url}/account`),
        page.getByRole('button', { name: 'Yes, resume' }).click(),
      ]);
      expect(await page.getByRole('status').textContent()).toContain('runs again');
      // A resumed trial is the trial again: it keeps its end, where the first charge comes.
      expect(await page.locator('.status').textContent()).toBe('Free trial');
      expect(await termDate('Free trial ends')).toBe(trialEnds);
      expect(await termDate('First charge')).toContain(trialEnds ?? '');

      // Cancel now, confirmed: access is gone.
      await page.getByRole('link', { name: 'Cancel now' }).click();
      await expectAccessible(page);
      await screenshot(page, `${folder}/confirm-cancel-now`);
      await Promise.all([
        page.waitForURL(`${shop.url}/account`),
        page.getByRole('button', { name: 'Yes, cancel now' }).click(),
      ]);
      expect(await page.getByRole('status').textContent()).toContain('Access has ended');
      expect(await page.locator('.status').textContent()).toBe('Ended');
      await page.goto(`${shop.url}/premium`);
      expect(new URL(page.url()).pathname).toBe('/');
    });

    it('counts a day pass bought twice as two, and a redelivered webhook once', async () => {
      const page = await phone();
      await signIn(page, 'Youssef');
      for (let purchase = 0; purchase < 2; purchase++) {
        await page.goto(shop.url);
        await Promise.all([
          page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
          offerCard(page, 'offer_day_pass').getByRole('button', { name: 'Buy Day pass' }).click(),
        ]);
        await consentByPin(sandbox, page, '+21650000000');
        await page.waitForURL(`${shop.url}/return?**`);
        expect(await page.locator('h1').textContent()).toBe('Thank you');
      }
      await page.goto(`${shop.url}/account`);
      expect(await page.locator('.balance').textContent()).toBe('2 of 2');

      // The service delivers at least once: the same event again must not add a third pass.
      await sandbox.deliverDue();
      const delivery = sandbox
        .webhooks()
        .find((event) => event.event === 'payment.succeeded' && event.payload.offerUid === 'offer_day_pass');
      if (!delivery) throw new Error('no payment.succeeded event for the day pass');
      const replay = await fetch(`${sandbox.apiBaseUrl}/sandbox/webhooks/${delivery.id}/replay`, {
        method: 'POST',
      });
      expect(replay.ok).toBe(true);
      await page.reload();
      expect(await page.locator('.balance').textContent()).toBe('2 of 2');
      await expectAccessible(page);
      await screenshot(page, `${folder}/account-passes`);

      // A pass is spent through the kit: one fewer left, and none below zero.
      await Promise.all([
        page.waitForURL(`${shop.url}/account`),
        page.getByRole('button', { name: 'Use a pass' }).click(),
      ]);
      expect(await page.getByRole('status').textContent()).toContain('Passes left: 1');
      expect(await page.locator('.balance').textContent()).toBe('1 of 2');
      await page.getByRole('button', { name: 'Use a pass' }).click();
      await page.waitForURL(`${shop.url}/account`);
      expect(await page.locator('.balance').textContent()).toBe('0 of 2');
      expect(await page.getByRole('button', { name: 'Use a pass' }).count()).toBe(0);
    });

    it('shows a declined payment as a try-again page without access', async () => {
      const page = await phone();
      await signIn(page, 'Léa');
      await Promise.all([
        page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
        offerCard(page, 'offer_full_unlock').getByRole('button', { name: 'Buy Full unlock' }).click(),
      ]);
      // A sandbox test number whose charge the operator declines (PAY-103).
      await consentByPin(sandbox, page, '+21620000103');
      await Promise.all([page.waitForURL(`${shop.url}/return?**`), page.locator('#return').click()]);
      expect(await page.locator('h1').textContent()).toBe('The payment did not go through');
      // Why, in the shop's own words: the service's PAY-103.
      expect(await page.textContent('main')).toContain('Your mobile operator declined the charge.');
      expect(await page.textContent('main')).toContain('You do not have access to Full unlock.');
      expect(await page.getByRole('link', { name: 'Try again' }).count()).toBe(1);
      await expectAccessible(page);
      await screenshot(page, `${folder}/return-failed`);
      await page.goto(`${shop.url}/account`);
      expect(await page.locator('ul.access li', { hasText: 'Full unlock' }).textContent()).toContain('No');
    });

    it('offers to continue or cancel a checkout left unfinished, and never trusts the query string', async () => {
      const page = await phone();
      await signIn(page, 'Léa');
      await Promise.all([
        page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
        offerCard(page, 'offer_day_pass').getByRole('button', { name: 'Buy Day pass' }).click(),
      ]);
      const checkoutUrl = page.url();
      const paymentUid = new URL(checkoutUrl).pathname.split('/')[2] ?? '';
      // The browser comes back claiming success before paying: the page reads the payment instead,
      // and offers to go on with it rather than wait for it to expire.
      await page.goto(`${shop.url}/return?paymentUid=${paymentUid}&status=SUCCEEDED`);
      expect(await page.locator('h1').textContent()).toBe('Your payment is not finished');
      expect(await page.getByRole('link', { name: 'Continue the payment' }).getAttribute('href')).toBe(
        checkoutUrl,
      );
      expect(await page.locator('script[src="/static/check-again.js"]').count()).toBe(0);
      await expectAccessible(page);
      await screenshot(page, `${folder}/return-unfinished`);

      // Another account cannot read it.
      const other = await phone();
      await signIn(other, 'Youssef');
      const response = await other.goto(`${shop.url}/return?paymentUid=${paymentUid}`);
      expect(response?.status()).toBe(404);

      // The offers page continues it too; the account page lists it; cancelling ends it.
      await page.goto(shop.url);
      expect(await offerCard(page, 'offer_day_pass').getByRole('status').textContent()).toContain(
        'not finished',
      );
      await page.goto(`${shop.url}/account`);
      expect(await page.getByRole('link', { name: 'Continue', exact: true }).getAttribute('href')).toBe(
        checkoutUrl,
      );
      await expectAccessible(page);
      await screenshot(page, `${folder}/account-pending`);
      await Promise.all([
        page.waitForURL(`${shop.url}/account`),
        page.getByRole('button', { name: 'Cancel this payment' }).click(),
      ]);
      expect(await page.getByRole('status').textContent()).toContain('The payment was cancelled');
      expect(await page.getByRole('button', { name: 'Cancel this payment' }).count()).toBe(0);
      await page.goto(`${shop.url}/return?paymentUid=${paymentUid}`);
      expect(await page.textContent('main')).toContain('The payment was cancelled.');
    });

    it('says it is confirming while the operator charges, and checks again by itself', async () => {
      const page = await phone();
      await signIn(page, 'Léa');
      await Promise.all([
        page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
        offerCard(page, 'offer_day_pass').getByRole('button', { name: 'Buy Day pass' }).click(),
      ]);
      const paymentUid = new URL(page.url()).pathname.split('/')[2] ?? '';
      // A sandbox test number whose operator answers late: the payment stays PROCESSING, and the
      // subscriber comes back to the shop meanwhile.
      await consentByPin(sandbox, page, '+21620000999');
      await page.goto(`${shop.url}/return?paymentUid=${paymentUid}`);
      expect(await page.locator('h1').textContent()).toBe('Confirming your payment');
      expect(await page.locator('script[src="/static/check-again.js"]').getAttribute('data-seconds')).toBe(
        '3',
      );
      // It reads the payment again every 3 s by script (a meta refresh is a WCAG 2.2.1 time limit),
      // shows a "Check again" link for visitors without JavaScript, and stops once final.
      await expectAccessible(page);
      await screenshot(page, `${folder}/return-pending`);
      await sandbox.advanceClock(60);
      await page.reload();
      expect(await page.locator('h1').textContent()).toBe('Thank you');
    });

    it('charges an account once: an owned unlock and a live subscription from any line, and a returning subscriber pays', async () => {
      const page = await phone();
      await signIn(page, 'Youssef');
      await Promise.all([
        page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
        offerCard(page, 'offer_full_unlock').getByRole('button', { name: 'Buy Full unlock' }).click(),
      ]);
      await consentByPin(sandbox, page, '+21650000000');
      await page.waitForURL(`${shop.url}/return?**`);
      await page.goto(shop.url);
      expect(await offerCard(page, 'offer_full_unlock').getByRole('status').textContent()).toBe(
        'You own this.',
      );
      expect(await offerCard(page, 'offer_full_unlock').getByRole('button').count()).toBe(0);

      await Promise.all([
        page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
        offerCard(page, 'offer_premium_monthly')
          .getByRole('button', { name: /Subscribe/ })
          .click(),
      ]);
      await consentByPin(sandbox, page, '+21650000000');
      await page.waitForURL(`${shop.url}/return?**`);
      await page.goto(shop.url);
      const premium = offerCard(page, 'offer_premium_monthly');
      expect(await premium.getByRole('status').textContent()).toBe('You are subscribed.');
      expect(await premium.getByRole('link', { name: 'Manage your subscription' }).getAttribute('href')).toBe(
        '/account',
      );
      await expectAccessible(page);
      await screenshot(page, `${folder}/offers-owned-subscribed`);
      // A form posted anyway (an old tab) is refused, and nothing is created at the service.
      const payments = async () => {
        const answer = await fetch(`${sandbox.apiBaseUrl}/sandbox/payments`);
        return ((await answer.json()) as { data: unknown[] }).data.length;
      };
      const before = await payments();
      const token = await page.locator('input[name=token]').first().getAttribute('value');
      const refused = await page.request.post(`${shop.url}/checkout`, {
        form: { offerUid: 'offer_premium_monthly', token: token ?? '' },
        headers: { origin: shop.url },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(409);
      expect(await refused.text()).toContain('You are already subscribed');
      expect(await payments()).toBe(before);

      // Cancelled, then back a day later: the paid price, no second trial.
      await page.goto(`${shop.url}/account`);
      await page.getByRole('link', { name: 'Cancel now' }).click();
      await Promise.all([
        page.waitForURL(`${shop.url}/account`),
        page.getByRole('button', { name: 'Yes, cancel now' }).click(),
      ]);
      await sandbox.advanceClock(86_400);
      await page.goto(shop.url);
      const back = ((await offerCard(page, 'offer_premium_monthly').textContent()) ?? '').replace(
        /\s+/g,
        ' ',
      );
      expect(back).toContain('billing starts today');
      expect(back).not.toContain('7 days');
      await screenshot(page, `${folder}/offers-returning`);
      await Promise.all([
        page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
        offerCard(page, 'offer_premium_monthly')
          .getByRole('button', { name: /Subscribe/ })
          .click(),
      ]);
      await consentByPin(sandbox, page, '+21650000000');
      await page.waitForURL(`${shop.url}/return?**`);
      expect(await page.locator('h1').textContent()).toBe('Thank you');
      await page.goto(`${shop.url}/account`);
      expect(await page.locator('.status').textContent()).toBe('Active');
    });

    it('keeps the account page in agreement with itself after cancel and resume, as the sandbox clock moves', async () => {
      const page = await phone();
      await signIn(page, 'Léa');
      await Promise.all([
        page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
        offerCard(page, 'offer_premium_monthly')
          .getByRole('button', { name: /Subscribe/ })
          .click(),
      ]);
      await consentByPin(sandbox, page, '+21655443322');
      await page.waitForURL(`${shop.url}/return?**`);
      const card = page.locator('article.card', { hasText: 'Premium, monthly' });
      /** What the card says and offers, which must agree with the status it shows. */
      const cardState = async () => ({
        status: await card.locator('.status').textContent(),
        cancelAtPeriodEnd: await card.getByRole('link', { name: 'Cancel at the end of the period' }).count(),
        resume: await card.getByRole('link', { name: 'Resume' }).count(),
      });
      const scheduled = {
        status: 'Cancelled, ends at the end of the period',
        cancelAtPeriodEnd: 0,
        resume: 1,
      };

      // Past the trial: the first charge and its events happen at the sandbox's time, days ahead.
      await sandbox.advanceClock(8 * 86_400);
      await page.goto(`${shop.url}/account`);
      expect(await card.locator('.status').textContent()).toBe('Active');
      // Its webhook held back (the receiver unreachable for now): the page shows the cancel's own
      // answer, stamped with the time it was read, so the earlier events cannot mask it.
      const webhookUrl = `${shop.url}/webhooks/dcb`;
      sandbox.setWebhookUrl('http://127.0.0.1:9/unreachable');
      await card.getByRole('link', { name: 'Cancel at the end of the period' }).click();
      await Promise.all([
        page.waitForURL(`${shop.url}/account`),
        page.getByRole('button', { name: 'Yes, cancel at the end of the period' }).click(),
      ]);
      expect(await page.getByRole('status').textContent()).toContain('You keep access until then');
      expect(await cardState()).toEqual(scheduled);
      sandbox.setWebhookUrl(webhookUrl);
      await sandbox.advanceClock(86_400);
      await page.reload();
      expect(await cardState()).toEqual(scheduled);

      await card.getByRole('link', { name: 'Resume' }).click();
      await Promise.all([
        page.waitForURL(`${shop.url}/account`),
        page.getByRole('button', { name: 'Yes, resume' }).click(),
      ]);
      expect(await page.getByRole('status').textContent()).toContain('runs again');
      const running = await cardState();
      expect(running).toMatchObject({ cancelAtPeriodEnd: 1, resume: 0 });
      expect(running.status).not.toBe(scheduled.status);
      await sandbox.advanceClock(86_400);
      await page.reload();
      expect(await cardState()).toEqual(running);
      await expectAccessible(page);
      await screenshot(page, `${folder}/account-resumed`);
    });

    it('pays in the embedded checkout, framed from the checkout host only', async () => {
      const page = await phone();
      await signIn(page, 'Léa');
      await offerCard(page, 'offer_full_unlock').getByRole('button', { name: 'Pay on this page' }).click();
      await page.locator('iframe.checkout').waitFor();
      const csp = (await page.request.get(shop.url)).headers()['content-security-policy'] ?? '';
      expect(csp).toContain(`frame-src ${new URL(sandbox.checkoutBaseUrl).origin}`);
      const frame = page.frameLocator('iframe.checkout');
      await frame.locator('input[name=msisdn]').waitFor();
      await expectAccessible(page);
      await screenshot(page, `${folder}/checkout-embedded`);
      const checkoutFrame = page
        .frames()
        .find((candidate) => candidate.url().startsWith(sandbox.checkoutBaseUrl));
      if (!checkoutFrame) throw new Error('the checkout frame is missing');
      await consentByPin(sandbox, checkoutFrame, '+21620000000');
      // The checkout tells the page it is done; the page goes to the return page.
      await page.waitForURL(`${shop.url}/return?**`);
      expect(await page.locator('h1').textContent()).toBe('Thank you');
    });

    it('speaks Arabic, right to left, when chosen with the switcher', async () => {
      const page = await phone('fr');
      await page.goto(shop.url);
      expect(await page.locator('html').getAttribute('lang')).toBe('fr');
      expect(await offerCard(page, 'offer_premium_monthly').textContent()).toContain('par mois');
      await screenshot(page, `${folder}/offers-fr`);
      await page.getByRole('link', { name: 'العربية' }).click();
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
      expect(await page.locator('html').getAttribute('lang')).toBe('ar');
      expect(await page.locator('h1').textContent()).toBe('العروض');
      expect(await offerCard(page, 'offer_premium_monthly').textContent()).toContain('شهريًا');
      await expectAccessible(page);
      await screenshot(page, `${folder}/offers-ar`);
    });

    it.each(['fr', 'ar'] as const)(
      'writes a price the same on the shop and on the checkout, and dates with their zone (%s)',
      async (language) => {
        const page = await phone(language);
        await page.goto(`${shop.url}/sign-in`);
        await page.getByLabel('Amira').check();
        await Promise.all([
          page.waitForURL(`${shop.url}/`),
          page.locator('form[action="/sign-in"] button').click(),
        ]);
        const card = offerCard(page, 'offer_day_pass');
        const price = ((await card.locator('.price').textContent()) ?? '').trim();
        await Promise.all([
          page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`),
          card.locator('form[action="/checkout"] button.primary').click(),
        ]);
        expect(await page.locator('html').getAttribute('lang')).toBe(language);
        expect(await page.locator('section.offer').textContent()).toContain(price);
        // The pending payment on the account page: its dates name the shop's zone.
        await page.goto(`${shop.url}/account`);
        const started =
          (await page.locator('section[aria-labelledby="pending-title"] dd').first().textContent()) ?? '';
        expect(started).toMatch(/UTC\+1|GMT\+1|غرينتش\+1|\+1/);
      },
    );

    it('answers unknown pages with an accessible page', async () => {
      const page = await phone();
      const response = await page.goto(`${shop.url}/nowhere`);
      expect(response?.status()).toBe(404);
      await expectAccessible(page);
    });
  });
});
