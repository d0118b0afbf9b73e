import { paymentSchema } from '@dcbkit/core/schemas';
import { describe, expect, it } from 'vitest';
import {
  apiGet,
  createPayment,
  dataOf,
  expectApiError,
  getToken,
  paymentBody,
} from '../test-support/api-client.js';
import { addApplication } from '../test-support/sandbox-fixture.js';
import {
  cancelSubscription,
  payAtCheckout,
  readPayment,
  receivedEvents,
  type SubscriptionWorld,
  subscribe,
  useSubscriptionWorld,
} from '../test-support/subscription-world.js';
import { CheckoutBrowser } from '../testing/checkout-browser.js';

const start = useSubscriptionWorld();

async function newPayment(w: SubscriptionWorld, offerUid: string, extra: Record<string, unknown> = {}) {
  return dataOf(await createPayment(w.sandbox, await w.token(), paymentBody(offerUid, extra)), paymentSchema);
}

describe('SUB-108: one trial per product and subscriber', () => {
  it('refuses a second trial at the checkout’s number step, even after the first subscription ended', async () => {
    const w = await start();
    const { subscriptionUid } = await subscribe(w, '+21690000000');
    await cancelSubscription(w, subscriptionUid, 'NOW');
    const second = await newPayment(w, 'offer_premium_monthly');
    const refused = await payAtCheckout(w.sandbox, second.checkoutUrl, '+21690000000');
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('This line has already had the free trial of this product. (SUB-108)');
    expect((await readPayment(w, second.paymentUid)).status).toBe('REQUIRES_ACTION');
    await payAtCheckout(w.sandbox, second.checkoutUrl, '+21690000001');
    expect((await readPayment(w, second.paymentUid)).status).toBe('SUCCEEDED');
  });

  it('refuses it at creation when the number is prefilled, and creates nothing', async () => {
    const w = await start();
    await subscribe(w, '+21620000000');
    const token = await w.token();
    const body = paymentBody('offer_premium_monthly', { prefill: { msisdn: '+21620000000' } });
    expectApiError(await createPayment(w.sandbox, token, body), 'SUB-108');
    const payments = await apiGet(w.sandbox, '/sandbox/payments');
    expect((payments.body as { data: unknown[] }).data).toHaveLength(1);
  });

  it('allows the same number in another application, and a paid offer of the same product', async () => {
    let other = { clientId: '', clientSecret: '' };
    const w = await start((config) => {
      other = addApplication(config, 'svc_test_other', ['payments', 'subscriptions']);
      const [trial] = config.offers;
      if (trial) config.offers.push({ ...trial, offerUid: 'offer_premium_paid', trialDays: 0 });
    });
    await subscribe(w, '+21690000000');
    const paid = await subscribe(w, '+21690000000', 'offer_premium_paid');
    expect(paid.payment.orderId).toMatch(/^ord_/);
    const otherToken = await getToken(w.sandbox, other.clientId, other.clientSecret);
    const created = await createPayment(
      w.sandbox,
      otherToken,
      paymentBody('offer_premium_monthly', { prefill: { msisdn: '+21690000000' } }),
    );
    expect(created.status).toBe(201);
  });
});

describe('CAT-109: a one-time item is owned once', () => {
  it('refuses a second unlock at the number step or at creation; a consumable can be bought again', async () => {
    const w = await start();
    const first = await newPayment(w, 'offer_full_unlock');
    await payAtCheckout(w.sandbox, first.checkoutUrl, '+21690000000');
    expect((await readPayment(w, first.paymentUid)).status).toBe('SUCCEEDED');

    const second = await newPayment(w, 'offer_full_unlock');
    const refused = await payAtCheckout(w.sandbox, second.checkoutUrl, '+21690000000');
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('This line already owns this item. (CAT-109)');
    const prefilled = paymentBody('offer_full_unlock', { prefill: { msisdn: '+21690000000' } });
    expectApiError(await createPayment(w.sandbox, await w.token(), prefilled), 'CAT-109');

    for (let i = 0; i < 2; i++) {
      const pass = await newPayment(w, 'offer_day_pass');
      await payAtCheckout(w.sandbox, pass.checkoutUrl, '+21690000000');
      expect((await readPayment(w, pass.paymentUid)).status).toBe('SUCCEEDED');
    }
  });

  it('fails the later of two checkouts that were open at once, with payment.failed', async () => {
    const w = await start();
    const open = async () => {
      const payment = await newPayment(w, 'offer_full_unlock');
      const browser = new CheckoutBrowser(w.sandbox.checkoutBaseUrl);
      const page = await browser.submit(await browser.open(payment.checkoutUrl), '/number', {
        msisdn: '+21690000000',
        network: 'MOBILE_DATA',
      });
      return { payment, confirm: () => browser.submit(page, '/consent/header-enrichment') };
    };
    const first = await open();
    const second = await open();
    await first.confirm();
    const result = await second.confirm();
    expect(result.html).toContain('This line already owns this item. (CAT-109)');
    expect((await readPayment(w, first.payment.paymentUid)).status).toBe('SUCCEEDED');
    const failed = await readPayment(w, second.payment.paymentUid);
    expect(failed.status).toBe('FAILED');
    expect(failed.orderId).toBeUndefined();
    const events = await receivedEvents(w);
    expect(events.map((event) => [event.event, event.paymentUid])).toEqual([
      ['payment.succeeded', first.payment.paymentUid],
      ['entitlement.granted', first.payment.paymentUid],
      ['payment.failed', second.payment.paymentUid],
    ]);
  });
});
