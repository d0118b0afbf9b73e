import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, postForm, tokenOn } from '../test-support/browser-session.js';
import { type ShopUnderTest, shopUnderTest, TEST_OPERATOR } from '../test-support/shop-under-test.js';

// The operations view's pages over HTTP (supertest), after a purchase made through the embedded sandbox.
describe('the operations view', () => {
  let shop: ShopUnderTest;
  let operator: BrowserSession;

  beforeAll(async () => {
    shop = await shopUnderTest();
    const { sandbox, kit } = shop.billing;
    if (!sandbox) throw new Error('the shop should run the embedded sandbox');

    // Léa buys a day pass: checkout, consent on the sandbox's pages, back to the return page.
    const customer = request.agent(shop.app);
    await postForm(customer, '/sign-in', { accountId: 'demo-lea' });
    const checkout = await postForm(customer, '/checkout', {
      offerUid: 'offer_day_pass',
      token: await tokenOn(customer, '/'),
    });
    const outcome = await createCheckoutDriver(sandbox).pay(checkout.headers.location ?? '');
    expect(outcome.status).toBe('SUCCEEDED');
    const returnUrl = new URL(outcome.returnUrl?.toString() ?? '/', shop.url);
    await customer.get(`${returnUrl.pathname}${returnUrl.search}`);
    // The sandbox posts the payment's webhook to the shop too; wait until it is recorded.
    for (let attempt = 0; attempt < 100; attempt++) {
      const entries = await kit.store.listHistory({ accountKey: 'demo-lea', limit: 10 });
      if (entries.some((entry) => entry.source === 'webhook')) break;
      await sandbox.deliverDue();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    operator = request.agent(shop.app);
    await postForm(operator, '/ops/sign-in', { password: TEST_OPERATOR.password });
  });
  afterAll(() => shop?.close());

  const textOf = (response: { status: number; text: string }) => {
    expect(response.status).toBe(200);
    return response.text.replace(/\s+/g, ' ');
  };

  it('shows the account’s entitlement, the reason in words, and its history after the purchase', async () => {
    const page = textOf(await operator.get('/ops/account?key=demo-lea'));
    expect(page).toContain('Account demo-lea');
    expect(page).toContain('Day pass');
    expect(page).toContain('No access until a pass is used: passes left: 1.');
    expect(page).toMatch(/<th scope="col">When<\/th>/);
    // The return page's read and the webhook, each a row with its decision.
    expect(page).toContain('Return page');
    expect(page).toContain('payment.read');
    expect(page).toContain('payment.succeeded');
    expect(page).toContain('Applied');
    expect(page).toMatch(/None → Active, 1 left/);
    // A page view reads nothing from the service.
    expect(page).not.toContain('The service says');
  });

  it('finds an account from the search form, and says when nothing is known of it', async () => {
    const page = textOf(await operator.get('/ops/account?key=%20nobody%20'));
    expect(page).toContain('Account nobody');
    expect(page).toContain('Nothing is known of this account');
    const empty = await operator.get('/ops/account?key=');
    expect(empty.status).toBe(303);
    expect(empty.headers.location).toBe('/ops');
  });

  it('lists the webhook deliveries with their outcome, and the webhook counts', async () => {
    const page = textOf(await operator.get('/ops/webhooks'));
    expect(page).toContain('Recent deliveries');
    expect(page).toMatch(/demo-lea<\/a>/);
    expect(page).toContain('payment.succeeded');
    expect(page).toMatch(/<dt>Accepted<\/dt><dd>[1-9]/);
  });

  it('reconciles the account now, shows what changed, and lists the run', async () => {
    const token = await tokenOn(operator, '/ops/account?key=demo-lea');
    const page = textOf(await postForm(operator, '/ops/account/reconcile', { key: 'demo-lea', token }));
    expect(page).toContain('Reconciled just now');
    expect(page).toMatch(/Checked: \d+\. Changed: 0\. Failed: 0\./);
    const runs = textOf(await operator.get('/ops/reconcile'));
    expect(runs).toContain('The reconciler runs every 15 minutes');
    expect(runs).toContain('Account demo-lea, asked by an operator');
    expect(runs).toContain('Every account due for a check');
  });

  it('warns on every page, naming DCB_WEBHOOK_SECRET and its rotation, once a signature is refused', async () => {
    expect(textOf(await operator.get('/ops'))).not.toContain('refused for their signature');
    const forged = await request(shop.app)
      .post('/webhooks/dcb')
      .set('content-type', 'application/json')
      // Signed with a secret the shop does not have: a well-formed header, the wrong digest.
      .set('service-signature', `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`)
      .send(JSON.stringify({ id: 'evt_forged', event: 'payment.succeeded' }));
    expect(forged.status).toBe(401);
    for (const path of ['/ops', '/ops/webhooks', '/ops/reconcile']) {
      const page = textOf(await operator.get(path));
      expect(page).toContain('Webhooks refused for their signature: 1.');
      expect(page).toContain('DCB_WEBHOOK_SECRET=whsec_new,whsec_old');
    }
    const counts = textOf(await operator.get('/ops/webhooks'));
    expect(counts).toContain('<dd>1 (<span class="code" dir="ltr">signature_mismatch: 1</span>)</dd>');
  });

  it('reads the service on request, in French and in Arabic (right to left)', async () => {
    await operator.get('/language?lang=fr&next=/ops');
    const french = textOf(await operator.get('/ops/account?key=demo-lea&read=1'));
    expect(french).toContain('<html lang="fr" dir="ltr">');
    expect(french).toContain('Compte demo-lea');
    expect(french).toContain('Avant → après');
    await operator.get('/language?lang=ar&next=/ops');
    const arabic = textOf(await operator.get('/ops/account?key=demo-lea'));
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain('قبل ← بعد');
  });
});
