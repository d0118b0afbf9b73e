import type { RequestListener } from 'node:http';
import type { Sandbox } from '@dcbkit/sandbox';
import { CheckoutBrowser } from '@dcbkit/sandbox/testing';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { payOnCheckout } from '../support/checkout-driver.js';
import { expectEveryEntitlementExplained } from '../support/explain-every.js';
import { listen, type RunningServer } from '../support/listen.js';
import { APP_VARIANTS, accountHeader } from '../support/partner-apps.js';
import { createPartnerKit, type PartnerKit } from '../support/partner-kit.js';

// The service refuses a second charge only per phone line (CAT-109, SUB-108); an account may pay
// from several lines. The checkout route refuses per account, before any request to the service.

interface Running {
  sandbox: Sandbox;
  app: RunningServer;
  kit: PartnerKit;
}

let running: Running | undefined;
afterEach(async () => {
  if (running) await expectEveryEntitlementExplained(running.kit);
  await running?.app.close();
  await running?.sandbox.close();
  running = undefined;
});

/** Every payment the sandbox has created, oldest first. */
async function sandboxPayments(sandbox: Sandbox): Promise<{ paymentUid: string; offerUid: string }[]> {
  const answer = await request(sandbox.apiBaseUrl).get('/sandbox/payments');
  return (answer.body as { data: { paymentUid: string; offerUid: string }[] }).data;
}

describe.each(APP_VARIANTS)('$name: one charge per account', (variant) => {
  async function start(): Promise<Running> {
    const sandbox = await startTestSandbox();
    let listener: RequestListener = (_req, res) => res.end();
    const app = await listen((req, res) => listener(req, res));
    const kit = createPartnerKit(sandbox, `${app.url}/return`);
    listener = await variant.build(kit, 'none');
    sandbox.setWebhookUrl(`${app.url}/webhooks/dcb`);
    running = { sandbox, app, kit };
    return running;
  }

  /** A checkout form as the offers page renders it: a fresh form token, so a fresh nonce. */
  async function checkout(account: string, offerUid: string) {
    const { app, kit } = running as Running;
    const response = await request(app.url)
      .post('/checkout')
      .set({ [accountHeader]: account, origin: app.url })
      .type('form')
      .send(new URLSearchParams({ token: kit.routes.formToken(account), offerUid }).toString());
    const body = response.status === 303 ? undefined : (response.body as { error?: { code: string } });
    return {
      status: response.status,
      location: response.headers.location ?? '',
      code: body?.error?.code,
    };
  }

  /** The return page as the account's browser opens it. */
  function openReturn(returned: URL, account: string) {
    return request(returned.origin).get(`${returned.pathname}${returned.search}`).set(accountHeader, account);
  }

  /** Pays a started checkout from a line, comes back to the return page, lets the webhooks land. */
  async function pay(account: string, checkoutUrl: string, msisdn: string) {
    const { sandbox } = running as Running;
    const returned = await payOnCheckout(sandbox, checkoutUrl, msisdn);
    expect((await openReturn(returned, account)).status).toBe(200);
    await sandbox.deliverDue();
  }

  it('refuses a second purchase of an owned unlock from another line, creating nothing at the service', async () => {
    const { sandbox } = await start();
    const first = await checkout('alice', 'offer_full_unlock');
    await pay('alice', first.location, '+21620000000');
    const before = await sandboxPayments(sandbox);

    expect(await checkout('alice', 'offer_full_unlock')).toMatchObject({
      status: 409,
      code: 'already_owned',
    });
    expect(await sandboxPayments(sandbox)).toEqual(before);
    // Another account is another customer.
    expect((await checkout('bob', 'offer_full_unlock')).status).toBe(303);
  });

  it('refuses a second subscription to a product the account subscribes to, creating nothing at the service', async () => {
    const { sandbox } = await start();
    const first = await checkout('alice', 'offer_premium_monthly');
    await pay('alice', first.location, '+21620000000');
    const before = await sandboxPayments(sandbox);

    for (const offerUid of ['offer_premium_monthly', 'offer_premium_monthly_paid']) {
      expect(await checkout('alice', offerUid)).toMatchObject({ status: 409, code: 'already_subscribed' });
    }
    expect(await sandboxPayments(sandbox)).toEqual(before);
  });

  it('continues an open checkout rather than start a second payment, even from two submits at once', async () => {
    const { sandbox } = await start();
    const [one, two] = await Promise.all([
      checkout('alice', 'offer_premium_monthly'),
      checkout('alice', 'offer_premium_monthly'),
    ]);
    expect(one.status).toBe(303);
    expect(two.location).toBe(one.location);
    const later = await checkout('alice', 'offer_premium_monthly');
    expect(later.location).toBe(one.location);
    expect(await sandboxPayments(sandbox)).toHaveLength(1);
  });

  it('sells a returning subscriber the paid offer, never the trial the service would refuse', async () => {
    const { sandbox, kit } = await start();
    const first = await checkout('alice', 'offer_premium_monthly');
    await pay('alice', first.location, '+21620000000');
    const subscription = (await kit.store.get('alice', 'prod_premium'))?.subscriptionUid ?? '';
    await kit.client.subscriptions.cancel(subscription, { when: 'NOW' });
    await sandbox.deliverDue();
    expect((await kit.store.get('alice', 'prod_premium'))?.status).toBe('REVOKED');
    // The subscriber comes back a day later (the sandbox's clock stands still otherwise).
    await sandbox.advanceClock(86_400);

    const comeBack = await checkout('alice', 'offer_premium_monthly');
    expect(comeBack.status).toBe(303);
    const payments = await sandboxPayments(sandbox);
    expect(payments.at(-1)?.offerUid).toBe('offer_premium_monthly_paid');
    // The same line that had the trial pays, and the subscription is ACTIVE at once.
    await pay('alice', comeBack.location, '+21620000000');
    expect((await kit.store.get('alice', 'prod_premium'))?.status).toBe('ACTIVE');
  });

  it('forgets a settled payment: a consumable bought and paid can be bought again', async () => {
    const { sandbox } = await start();
    const first = await checkout('alice', 'offer_day_pass');
    await pay('alice', first.location, '+21620000000');
    const second = await checkout('alice', 'offer_day_pass');
    expect(second.status).toBe(303);
    expect(second.location).not.toBe(first.location);
    expect(await sandboxPayments(sandbox)).toHaveLength(2);
  });

  it("cancels the account's own pending payment, and only while it waits on the subscriber", async () => {
    const { app, kit } = await start();
    const started = await checkout('alice', 'offer_full_unlock');
    const paymentUid = new URL(started.location).pathname.split('/').pop() ?? '';
    const cancel = (account: string) =>
      request(app.url)
        .post(`/payments/${paymentUid}/cancel`)
        .set({ [accountHeader]: account, origin: app.url })
        .type('form')
        .send(new URLSearchParams({ token: kit.routes.formToken(account) }).toString());
    expect((await cancel('bob')).status).toBe(404);
    const canceled = await cancel('alice');
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ kind: 'payment_canceled', paymentUid });
    expect((await kit.client.payments.retrieve(paymentUid)).status).toBe('CANCELED');
    // No longer pending: the next checkout starts a new payment.
    const again = await checkout('alice', 'offer_full_unlock');
    expect(again.status).toBe(303);
    expect(again.location).not.toBe(started.location);
    // Paid, it can no longer be cancelled.
    await pay('alice', again.location, '+21620000000');
    const paid = new URL(again.location).pathname.split('/').pop() ?? '';
    const late = await request(app.url)
      .post(`/payments/${paid}/cancel`)
      .set({ [accountHeader]: 'alice', origin: app.url })
      .send({});
    expect(late.status).toBe(409);
  });

  it('offers the paid offer when the service refuses a line its second trial (SUB-108)', async () => {
    const { sandbox, kit } = await start();
    // Bob had the trial on this line; Alice, new to the shop, pays from the same line.
    const bobs = await checkout('bob', 'offer_premium_monthly');
    await pay('bob', bobs.location, '+21620000000');
    const alices = await checkout('alice', 'offer_premium_monthly');
    // The checkout refuses the number (SUB-108); Alice gives up and goes back to the shop.
    const browser = new CheckoutBrowser(sandbox.checkoutBaseUrl);
    const numberStep = await browser.open(alices.location);
    const refused = await browser.submit(numberStep, '/number', { msisdn: '+21620000000', network: 'WIFI' });
    const gaveUp = await browser.submit(refused, '/abandon');
    const back = /id="return"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*id="return"/.exec(gaveUp.html);
    const returned = new URL((back?.[1] ?? back?.[2] ?? '').replaceAll('&amp;', '&'));
    const view = (await openReturn(returned, 'alice')).body;
    expect(view).toMatchObject({
      state: 'failed',
      failureCode: 'SUB-108',
      offerOnceTrialUsed: { offerUid: 'offer_premium_monthly_paid', trialDays: 0 },
    });
    const paid = await checkout('alice', 'offer_premium_monthly_paid');
    await pay('alice', paid.location, '+21620000000');
    expect((await kit.store.get('alice', 'prod_premium'))?.status).toBe('ACTIVE');
  });
});
