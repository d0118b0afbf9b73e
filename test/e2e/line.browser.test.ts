import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, tokenOn } from '../../starters/shop/src/test-support/browser-session.js';
import { chromiumAvailable } from '../browser/chromium.js';
import { SHOPS } from '../support/shops.js';
import { expectAccessible, screenshot } from './support/phone.js';
import { signInAsOperator, useChromium, usePhones } from './support/walk.js';

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
  });
});
