import type { RequestListener } from 'node:http';
import type { Sandbox } from '@dcbkit/sandbox';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { listen, type RunningServer } from '../support/listen.js';
import { APP_VARIANTS, accountHeader } from '../support/partner-apps.js';
import { createPartnerKit } from '../support/partner-kit.js';
import { chromiumAvailable, launchChromium } from './chromium.js';

const express5 = APP_VARIANTS.find((variant) => variant.name === 'Express 5');

/** The partner's offers page: one form per offer, each with the account's form token, as a real page renders it. */
function offersPage(offerUids: string[], formToken: () => string): string {
  const forms = offerUids
    .map(
      (offerUid) => `<form method="post" action="/checkout">
  <input type="hidden" name="offerUid" value="${offerUid}">
  <input type="hidden" name="token" value="${formToken()}">
  <button type="submit" id="buy-${offerUid}">Buy</button>
</form>`,
    )
    .join('\n');
  return `<!doctype html><html><body>${forms}</body></html>`;
}

describe.runIf(chromiumAvailable)('a subscriber pays in Chromium', () => {
  let browser: Browser;
  let sandbox: Sandbox;
  let app: RunningServer;

  beforeAll(async () => {
    if (!express5) throw new Error('the Express 5 app variant is missing');
    browser = await launchChromium();
    sandbox = await startTestSandbox();
    let listener: RequestListener = (_req, res) => res.end();
    app = await listen((req, res) => listener(req, res));
    const kit = createPartnerKit(sandbox, `${app.url}/return`);
    const partnerApp = await express5.build(kit, 'none');
    listener = (req, res) => {
      if (req.method === 'GET' && req.url === '/offers') {
        const account = String(req.headers[accountHeader]);
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          offersPage(['offer_full_unlock', 'offer_day_pass', 'offer_premium_monthly'], () =>
            kit.routes.formToken(account),
          ),
        );
        return;
      }
      partnerApp(req, res);
    };
    sandbox.setWebhookUrl(`${app.url}/webhooks/dcb`);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await sandbox?.close();
  });

  // A day pass is granted as a pass to use: it opens its day when spent, not when bought.
  it.each([
    ['en', 'offer_full_unlock', 'Confirm your payment', true],
    ['fr', 'offer_day_pass', 'Confirmez votre paiement', false],
    ['ar', 'offer_premium_monthly', 'عملية الدفع', true],
  ])(
    "in %s: from the partner's offers page through the checkout pages to a granted return",
    async (language, offerUid, heading, accessAtOnce) => {
      const context = await browser.newContext({
        locale: language,
        extraHTTPHeaders: { 'accept-language': language, [accountHeader]: `user_${language}` },
      });
      const page = await context.newPage();
      await page.goto(`${app.url}/offers`);
      await Promise.all([page.waitForURL(`${sandbox.checkoutBaseUrl}/c/**`), page.click(`#buy-${offerUid}`)]);

      expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
      expect(await page.textContent('body')).toContain(heading);
      await page.fill('input[name=msisdn]', '+21620000000');
      await page.check('input[name=network][value=WIFI]');
      await page.locator('form[action$="/number"] button').first().click();

      const paymentUid = new URL(page.url()).pathname.split('/')[2] ?? '';
      const [sms] = sandbox.sms({ paymentUid }).filter((message) => message.direction === 'MT');
      await page.fill('input[name=pin]', sms?.text.match(/^[0-9]+/)?.[0] ?? '');
      await Promise.all([
        page.waitForURL(`${app.url}/return?**`),
        page.locator('form[action$="/consent/pin"] button').first().click(),
      ]);

      const view = JSON.parse((await page.textContent('body')) ?? '{}') as {
        state?: string;
        hasAccess?: boolean;
      };
      expect(view).toMatchObject({ state: 'succeeded', hasAccess: accessAtOnce });
      await context.close();
    },
  );
});
