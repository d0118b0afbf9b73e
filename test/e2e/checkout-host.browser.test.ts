import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Sandbox, startSandbox } from '@dcbkit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../browser/chromium.js';
import { SHOPS } from '../support/shops.js';
import { expectAccessible, screenshot } from './support/phone.js';
import { signInAs, signInAsOperator, useChromium, usePhones } from './support/walk.js';

const LANGUAGES = ['en', 'fr', 'ar'] as const;
const WRONG_HOST = 'https://checkout.wrong.example';
const OPERATOR_PASSWORD = 'an-operator-password-for-the-walk';

// Issue 38, in Debian's Chromium: the shop on a standalone sandbox with a wrong
// DCB_CHECKOUT_BASE_URL. A buyer's checkout ends on "Billing is unavailable"; then the operations
// view, in each language, names the URL received, the variable and the host to set.
describe.runIf(chromiumAvailable)('a wrong checkout host in a browser', () => {
  const browser = useChromium();
  const phone = usePhones(browser);
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  }, 60_000);

  afterAll(async () => {
    await sandbox?.close();
  });

  describe.each(SHOPS)('the $name starter', ({ folder, startShop }) => {
    let shop: Awaited<ReturnType<typeof startShop>>;
    let dataDir: string;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), `walk-checkout-host-${folder}-`));
      const { clientId, clientSecret, webhookSecret } = sandbox.credentials;
      shop = await startShop({
        env: {
          DCB_ENV: 'sandbox',
          DCB_API_BASE_URL: sandbox.apiBaseUrl,
          DCB_CHECKOUT_BASE_URL: WRONG_HOST,
          DCB_CLIENT_ID: clientId,
          DCB_CLIENT_SECRET: clientSecret,
          DCB_WEBHOOK_SECRET: webhookSecret,
          SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
          OPERATOR_PASSWORD,
          DATA_DIR: dataDir,
          RECONCILE_EVERY_MINUTES: '0',
        },
        port: 0,
        logLevel: 'silent',
      });
      // A buyer's checkout: refused, as the new user met it.
      const buyer = await phone('en');
      await signInAs(buyer, shop.url, 'Amira');
      await buyer.locator('li#offer_day_pass').getByRole('button', { name: /Buy/ }).click();
      await buyer.locator('h1', { hasText: 'Billing is unavailable' }).waitFor();
      await screenshot(buyer, `${folder}/checkout-host-buyer-en`);
    }, 60_000);

    afterAll(async () => {
      await shop?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it.each(LANGUAGES)('the operations view names the host to set, accessible (%s)', async (language) => {
      const page = await phone(language);
      await signInAsOperator(page, shop.url, OPERATOR_PASSWORD);
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      const notice = page.locator('.alert[role=alert]');
      expect(await notice.count()).toBe(1);
      const text = (await notice.textContent()) ?? '';
      expect(text).toContain(`${sandbox.checkoutBaseUrl}/c/pay_`);
      expect(text).toContain(`${WRONG_HOST} (DCB_CHECKOUT_BASE_URL)`);
      expect(text).toContain(`DCB_CHECKOUT_BASE_URL=${sandbox.checkoutBaseUrl}`);
      await expectAccessible(page);
      await screenshot(page, `${folder}/ops-checkout-host-${language}`);
    });
  });
});
