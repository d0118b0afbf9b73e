import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Sandbox, startSandbox } from '@dcbkit/sandbox';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, postForm, tokenOn } from '../test-support/browser-session.js';
import { type ShopUnderTest, shopUnderTest, TEST_OPERATOR } from '../test-support/shop-under-test.js';

// Issue 38: a wrong DCB_CHECKOUT_BASE_URL was found only by a buyer. On a standalone sandbox, as on
// the real service: the buyer's checkout is refused (502), its payment cancelled at the service,
// and every page of the operations view names the variable and the host to set.
describe('a shop whose DCB_CHECKOUT_BASE_URL is not the checkout host', () => {
  let sandbox: Sandbox;
  let shop: ShopUnderTest;
  let dataDir: string;
  let operator: BrowserSession;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    dataDir = await mkdtemp(join(tmpdir(), 'shop-checkout-host-'));
    const { clientId, clientSecret, webhookSecret } = sandbox.credentials;
    shop = await shopUnderTest({
      env: {
        DCB_ENV: 'sandbox',
        DCB_API_BASE_URL: sandbox.apiBaseUrl,
        DCB_CHECKOUT_BASE_URL: 'https://checkout.wrong.example',
        DCB_CLIENT_ID: clientId,
        DCB_CLIENT_SECRET: clientSecret,
        DCB_WEBHOOK_SECRET: webhookSecret,
        SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
        DATA_DIR: dataDir,
        RECONCILE_EVERY_MINUTES: '0',
      },
    });
    operator = request.agent(shop.app);
    await postForm(operator, '/ops/sign-in', { password: TEST_OPERATOR.password });
  }, 30_000);
  afterAll(async () => {
    await shop?.close();
    await sandbox?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const textOf = (response: { status: number; text: string }) => {
    expect(response.status).toBe(200);
    return response.text.replace(/\s+/g, ' ');
  };

  it('shows nothing before a checkout was refused', async () => {
    expect(textOf(await operator.get('/ops'))).not.toContain('refused for their checkout host');
  });

  it('answers the buyer 502, cancels the payment, and warns on every operations page with the host to set', async () => {
    const buyer = request.agent(shop.app);
    await postForm(buyer, '/sign-in', { accountId: 'demo-lea' });
    const checkout = await postForm(buyer, '/checkout', {
      offerUid: 'offer_day_pass',
      token: await tokenOn(buyer, '/'),
    });
    expect(checkout.status).toBe(502);
    expect(checkout.text).toContain('Billing is unavailable');

    const refused = shop.billing.kit.routes.checkoutHealth().lastRefused;
    expect(refused).toMatchObject({ receivedCheckoutHost: sandbox.checkoutBaseUrl, canceled: true });
    const payment = await shop.billing.kit.client.payments.retrieve(refused?.paymentUid ?? '');
    expect(payment.status).toBe('CANCELED');

    for (const path of ['/ops', '/ops/webhooks', '/ops/reconcile']) {
      const page = textOf(await operator.get(path));
      expect(page).toContain('Checkouts refused for their checkout host: 1.');
      expect(page).toContain(`${sandbox.checkoutBaseUrl}/c/${refused?.paymentUid}`);
      expect(page).toContain('https://checkout.wrong.example (DCB_CHECKOUT_BASE_URL)');
      expect(page).toContain(`DCB_CHECKOUT_BASE_URL=${sandbox.checkoutBaseUrl}`);
      expect(page).toContain('The shop cancelled that payment at the service');
    }
  });
});
