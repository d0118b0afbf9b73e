import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, tokenOn } from '../../starters/shop/src/test-support/browser-session.js';
import { chromiumAvailable } from '../browser/chromium.js';
import { SHOPS } from '../support/shops.js';
import { expectAccessible, screenshot } from './support/phone.js';
import { signInAs, signInAsOperator, useChromium, usePhones } from './support/walk.js';

const LANGUAGES = ['en', 'fr', 'ar'] as const;
const LINE = '+21620000011';

// Issue 37's repro in the shop: Amira and Youssef, two accounts on one phone, each buy the paid
// monthly Premium with line +21620000011. The operator sees the banner naming the line on the
// operations view, opens the line from it, and finds it again by its subscriberUid in the search.
describe.runIf(chromiumAvailable)('a line that pays twice, on the operations view', () => {
  const browser = useChromium();

  describe.each(SHOPS)('the $name starter', ({ folder, startShop }) => {
    let shop: Awaited<ReturnType<(typeof SHOPS)[number]['startShop']>>;
    let password: string;
    let subscriberUid: string;
    const phone = usePhones(browser);

    beforeAll(async () => {
      shop = await startShop({ env: {}, port: 0, logLevel: 'silent' });
      const sandbox = shop.sandbox;
      if (!sandbox || !shop.operatorAccess) throw new Error('the shop should run the embedded sandbox');
      password = shop.operatorAccess.password;
      const buy = async (accountId: string, offerUid: string, msisdn: string) => {
        const customer = request.agent(shop.url);
        await postForm(customer, '/sign-in', { accountId });
        const checkout = await postForm(customer, '/checkout', {
          offerUid,
          token: await tokenOn(customer, '/'),
        });
        const outcome = await createCheckoutDriver(sandbox).pay(checkout.headers.location ?? '', { msisdn });
        expect(outcome.status).toBe('SUCCEEDED');
        await sandbox.deliverDue();
      };
      for (const accountId of ['demo-amira', 'demo-youssef']) {
        await buy(accountId, 'offer_premium_monthly_paid', LINE);
      }
      // A day pass Amira pays from another phone: not this line's.
      await buy('demo-amira', 'offer_day_pass', '+21620000099');
    }, 60_000);

    afterAll(async () => {
      await shop?.close();
    });

    it.each(LANGUAGES)(
      'the banner names the line and links to it; the search finds it (%s)',
      async (language) => {
        const page = await phone(language);
        const expectPage = async (name: string) => {
          expect(await page.locator('html').getAttribute('lang')).toBe(language);
          expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
          await expectAccessible(page);
          await screenshot(page, `${folder}/ops-line-${name}-${language}`);
        };
        await page.goto(`${shop.url}/ops`);
        await page.locator('#operator-password').fill(password);
        await Promise.all([
          page.waitForURL(`${shop.url}/ops`),
          page.locator('form[action="/ops/sign-in"] button').click(),
        ]);

        // The banner, on every page of a signed-in operator, with a link to the line.
        const banner = page.locator('.alert[role=alert]', { has: page.locator('a[href^="/ops/line"]') });
        expect(await banner.count()).toBe(1);
        const link = banner.locator('a[href^="/ops/line"]');
        expect(await link.count()).toBe(1);
        const line = (await link.textContent())?.trim() ?? '';
        expect(line).toMatch(/^sbr_/);
        if (language === 'en')
          expect(await banner.textContent()).toContain('Phone lines paying twice for one product: 1.');
        await expectPage('banner');

        await Promise.all([page.waitForURL(`${shop.url}/ops/line?line=${line}`), link.click()]);
        const twice = page.locator('section.alert');
        expect(await twice.count()).toBe(1);
        expect(await twice.locator('a[href^="/ops/account"]').allTextContents()).toEqual([
          'demo-amira',
          'demo-youssef',
        ]);
        expect(await page.locator('main section.card').count()).toBe(3);
        if (language === 'en')
          expect(await twice.locator('h2').textContent()).toBe('Pays twice for Premium, monthly');
        await expectPage('line');

        // The search by subscriberUid, from the overview.
        await page.goto(`${shop.url}/ops`);
        await page.locator('#subscriber-uid').fill(` ${line} `);
        await Promise.all([
          page.waitForURL(`${shop.url}/ops/line?line=**`),
          page.locator('form[action="/ops/line"] button').click(),
        ]);
        expect(await page.locator('h1 .code').textContent()).toBe(line);
        expect(await page.locator('section.alert').count()).toBe(1);

        // And an account of the line, from its page: its history names the line twice paid.
        await Promise.all([
          page.waitForURL(`${shop.url}/ops/account?key=demo-amira`),
          page.locator('main a[href="/ops/account?key=demo-amira"]').first().click(),
        ]);
        if (language === 'en')
          expect((await page.locator('table.data').allTextContents()).join(' ')).toContain('Line pays twice');
        await expectPage('account');

        // A line no account holds.
        await page.goto(`${shop.url}/ops/line?line=sbr_nobody`);
        expect(await page.locator('main p.notice[role=status]').count()).toBe(1);
        subscriberUid = line;
      },
    );

    it('exports the line’s record for a complaint: the payments this line made, from both accounts, in order', async () => {
      const page = await phone('en');
      await signInAsOperator(page, shop.url, password);
      await page.goto(`${shop.url}/ops/line?line=${subscriberUid}`);
      const href = await page.locator('main a[href^="/ops/line/checkouts.json"]').getAttribute('href');
      const answer = await page.request.get(`${shop.url}${href}`);
      expect(answer.headers()['content-disposition']).toContain('attachment');
      const record = (await answer.json()) as {
        accountKeys: string[];
        payments: Array<{
          accountKey: string;
          offerUid: string;
          ended?: { status: string; subscriberUid?: string };
        }>;
      };
      expect(record.accountKeys.sort()).toEqual(['demo-amira', 'demo-youssef']);
      // The day pass Amira paid from another phone is not this line's.
      expect(
        record.payments.map((payment) => [payment.accountKey, payment.offerUid, payment.ended?.status]),
      ).toEqual([
        ['demo-amira', 'offer_premium_monthly_paid', 'SUCCEEDED'],
        ['demo-youssef', 'offer_premium_monthly_paid', 'SUCCEEDED'],
      ]);
      for (const payment of record.payments) expect(payment.ended?.subscriberUid).toBe(subscriberUid);
      await expectAccessible(page);
    });

    // Issue 54: the subscriber who pays twice is told too, on their account page, with a way to
    // cancel their own subscription (followed to its confirmation, not confirmed: the other
    // languages walk the same line).
    it.each(LANGUAGES)(
      'tells each subscriber on the line it pays twice, with a link to cancel their own (%s)',
      async (language) => {
        for (const name of ['Amira', 'Youssef']) {
          const page = await phone(language);
          await signInAs(page, shop.url, name);
          await page.goto(`${shop.url}/account`);
          const notice = page.locator('section.line-twice');
          expect(await notice.count(), name).toBe(1);
          if (language === 'en')
            expect(await notice.locator('h2').textContent()).toContain('Your phone line pays twice for');
          const href = (await notice.locator('a').getAttribute('href')) ?? '';
          expect(href).toMatch(/^\/account\/subscriptions\/[^/]+\/cancel\?when=PERIOD_END$/);
          // The account's own subscription: the same link as its subscription's card.
          expect(await page.locator(`article.card a[href="${href}"]`).count()).toBe(1);
          expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
          await expectAccessible(page);
          await screenshot(page, `${folder}/account-line-twice-${name.toLowerCase()}-${language}`);
          await Promise.all([page.waitForURL(`${shop.url}${href}`), notice.locator('a').click()]);
          expect(await page.locator('form[action$="/cancel"] input[name=when]').getAttribute('value')).toBe(
            'PERIOD_END',
          );
        }
      },
    );

    it.each(LANGUAGES)('takes the operator from an account to its line (%s)', async (language) => {
      const page = await phone(language);
      await signInAsOperator(page, shop.url, password);
      await page.goto(`${shop.url}/ops/account?key=demo-youssef`);
      const link = page.locator('section.lines a[href^="/ops/line?line="]');
      expect(await link.allTextContents()).toEqual([subscriberUid]);
      await expectAccessible(page);
      await screenshot(page, `${folder}/ops-account-lines-${language}`);
      await Promise.all([page.waitForURL(`${shop.url}/ops/line?line=${subscriberUid}`), link.click()]);
      expect(await page.locator('main a[href="/ops/account?key=demo-youssef"]').count()).toBeGreaterThan(0);
    });

    it('keeps the free trial the offers page showed in the complaint record, read in en, fr and ar', async () => {
      // Léa, in French, starts the trial and leaves it open: a checkout not finished.
      const customer = await phone('fr');
      await signInAs(customer, shop.url, 'Léa');
      const form = customer.locator('li#offer_premium_monthly form[action="/checkout"]').first();
      const firstCharge = (await form.locator('input[name=shownFirstCharge]').getAttribute('value')) ?? '';
      expect(await form.locator('input[name=shownTrialDays]').getAttribute('value')).toBe('7');
      expect(await customer.locator('li#offer_premium_monthly').textContent()).toContain(firstCharge);
      await Promise.all([
        customer.waitForURL(`${shop.sandbox?.checkoutBaseUrl}/c/**`),
        form.locator('button').click(),
      ]);
      const says = {
        en: 'free trial shown: 7 days, first charge on',
        fr: 'essai gratuit affiché : 7 jours, premier prélèvement le',
        ar: 'التجربة المجانية المعروضة: 7 أيام، أول خصم في',
      };
      for (const language of LANGUAGES) {
        const page = await phone(language);
        await signInAsOperator(page, shop.url, password);
        await page.goto(`${shop.url}/ops/account?key=demo-lea`);
        const shown = (await page.locator('td.shown').allTextContents()).join(' ').replace(/\s+/g, ' ');
        expect(shown).toContain(`${says[language]} ${firstCharge}`);
        await expectAccessible(page);
        await screenshot(page, `${folder}/ops-trial-shown-${language}`);
        const answer = await page.request.get(`${shop.url}/ops/account/checkouts.json?key=demo-lea`);
        const record = (await answer.json()) as {
          payments: Array<{ shown?: { trial?: unknown; language?: string } }>;
        };
        expect(record.payments.at(-1)?.shown).toMatchObject({
          language: 'fr',
          trial: { days: 7, firstCharge },
        });
      }
    });
  });
});
