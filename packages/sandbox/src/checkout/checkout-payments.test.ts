import { subscriptionSchema } from '@dcbkit/core/schemas';
import { describe, expect, it } from 'vitest';
import { apiGet, dataOf } from '../test-support/api-client.js';
import { linkBack, returnParams, useCheckoutWorld } from '../test-support/checkout-world.js';

const { world, start, newPayment, readPayment, latestPin, deliveredEvents, enterNumber, payWithPin } =
  useCheckoutWorld();

describe('paying each default offer by PIN', () => {
  it('a day pass: SUCCEEDED with an order, payment.succeeded signed and echoed', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const done = await payWithPin(payment, '+21620000000');
    expect(returnParams(done)).toEqual({ paymentUid: payment.paymentUid, status: 'SUCCEEDED' });
    const read = await readPayment(payment.paymentUid);
    expect(read).toMatchObject({
      status: 'SUCCEEDED',
      orderId: expect.stringMatching(/^ord_/),
      subscriberUid: expect.stringMatching(/^sbr_/),
    });
    expect(read.subscriptionUid).toBeUndefined();
    const events = await deliveredEvents();
    expect(events).toEqual([
      {
        event: 'payment.succeeded',
        paymentUid: payment.paymentUid,
        status: 'SUCCEEDED',
        orderId: read.orderId,
        productUid: 'prod_day_pass',
        offerUid: 'offer_day_pass',
        subscriberUid: read.subscriberUid,
        metadata: { userId: 'user_42' },
        occurredAt: '2030-01-01T00:00:00.000Z',
      },
    ]);
  });

  it('an unlock: payment.succeeded then entitlement.granted', async () => {
    await start();
    const payment = await newPayment('offer_full_unlock');
    expect(returnParams(await payWithPin(payment, '+21650001234')).status).toBe('SUCCEEDED');
    const events = await deliveredEvents();
    expect(events.map((event) => event.event)).toEqual(['payment.succeeded', 'entitlement.granted']);
    const read = await readPayment(payment.paymentUid);
    for (const event of events) {
      expect(event).toMatchObject({
        orderId: read.orderId,
        productUid: 'prod_full_unlock',
        metadata: { userId: 'user_42' },
      });
    }
  });

  it('a subscription with a trial: nothing charged, TRIALING, subscription.trial_started', async () => {
    await start();
    const payment = await newPayment('offer_premium_monthly');
    await world.sandbox.clock.advance(60);
    expect(returnParams(await payWithPin(payment, '+21620000000')).status).toBe('SUCCEEDED');
    const read = await readPayment(payment.paymentUid);
    expect(read.orderId).toBeUndefined();
    expect(read.subscriptionUid).toMatch(/^subs_/);
    const subscription = dataOf(
      await apiGet(world.sandbox, `/v1/subscriptions/${read.subscriptionUid}`, world.token),
      subscriptionSchema,
    );
    expect(subscription).toEqual({
      subscriptionUid: read.subscriptionUid,
      status: 'TRIALING',
      productUid: 'prod_premium',
      offerUid: 'offer_premium_monthly',
      subscriberUid: read.subscriberUid,
      currentPeriodEnd: '2030-01-08T00:01:00.000Z',
      cancelAt: null,
      trialEndsAt: '2030-01-08T00:01:00.000Z',
    });
    const events = await deliveredEvents();
    expect(events.map((event) => event.event)).toEqual(['payment.succeeded', 'subscription.trial_started']);
    for (const event of events) {
      expect(event).toMatchObject({
        subscriptionUid: read.subscriptionUid,
        subscriptionStatus: 'TRIALING',
        metadata: { userId: 'user_42' },
      });
      expect(event.orderId).toBeUndefined();
    }
  });

  it('a subscription without a trial: charged, ACTIVE for a month, entitlement.granted', async () => {
    await start((config) => {
      const subscription = config.offers.find((offer) => offer.type === 'SUBSCRIPTION');
      if (subscription) subscription.trialDays = 0;
    });
    const payment = await newPayment('offer_premium_monthly');
    expect(returnParams(await payWithPin(payment, '+21620000000')).status).toBe('SUCCEEDED');
    const read = await readPayment(payment.paymentUid);
    expect(read.orderId).toMatch(/^ord_/);
    const subscription = dataOf(
      await apiGet(world.sandbox, `/v1/subscriptions/${read.subscriptionUid}`, world.token),
      subscriptionSchema,
    );
    expect(subscription).toMatchObject({
      status: 'ACTIVE',
      currentPeriodEnd: '2030-02-01T00:00:00.000Z',
      cancelAt: null,
    });
    expect(subscription.trialEndsAt).toBeUndefined();
    const events = await deliveredEvents();
    expect(events.map((event) => event.event)).toEqual(['payment.succeeded', 'entitlement.granted']);
    expect(events[1]).toMatchObject({
      orderId: read.orderId,
      subscriptionUid: read.subscriptionUid,
      subscriptionStatus: 'ACTIVE',
    });
  });

  it('shows the PIN in the sandbox inbox (HTML and JSON) and a wrong PIN costs an attempt', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const { browser, page } = await enterNumber(payment, '+216 20 000 000', 'WIFI');
    const pin = latestPin(payment.paymentUid);
    const inbox = await browser.open(`${world.sandbox.apiBaseUrl}/sandbox/inbox?msisdn=%2B21620000000`);
    expect(inbox.html).toContain(pin);
    const json = await apiGet(world.sandbox, `/sandbox/sms?paymentUid=${payment.paymentUid}`);
    expect(JSON.stringify(json.body)).toContain(pin);
    const wrong = await browser.submit(page, '/consent/pin', { pin: pin === '0000' ? '1111' : '0000' });
    expect(wrong.status).toBe(422);
    expect(wrong.html).toContain('Attempts left: 2.');
    expect(returnParams(await browser.submit(wrong, '/consent/pin', { pin })).status).toBe('SUCCEEDED');
  });

  it('fails the payment after too many wrong PINs', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    let { browser, page } = await enterNumber(payment, '+21620000000', 'WIFI');
    const wrongPin = latestPin(payment.paymentUid) === '0000' ? '1111' : '0000';
    for (let attempt = 0; attempt < 3; attempt++)
      page = await browser.submit(page, '/consent/pin', { pin: wrongPin });
    expect(page.html).toContain('too many wrong codes');
    expect(returnParams({ ...page, leftTo: linkBack(page) }).status).toBe('FAILED');
    expect((await readPayment(payment.paymentUid)).status).toBe('FAILED');
    expect((await deliveredEvents()).map((event) => [event.event, event.status])).toEqual([
      ['payment.failed', 'FAILED'],
    ]);
  });

  it('expires a PIN after its time and sends a new one on request', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const { browser, page } = await enterNumber(payment, '+21620000000', 'WIFI');
    const firstPin = latestPin(payment.paymentUid);
    await world.sandbox.clock.advance(301);
    const expired = await browser.submit(page, '/consent/pin', { pin: firstPin });
    expect(expired.html).toContain('This code has expired');
    const resent = await browser.submit(expired, '/consent/pin/resend');
    expect(world.sandbox.sms({ paymentUid: payment.paymentUid })).toHaveLength(2);
    expect(
      returnParams(await browser.submit(resent, '/consent/pin', { pin: latestPin(payment.paymentUid) }))
        .status,
    ).toBe('SUCCEEDED');
  });
});

describe('a number the checkout refused, then left to expire', () => {
  it('CAT-109: EXPIRED, and the read says why (failureCode), with no webhook', async () => {
    await start();
    const first = await newPayment('offer_full_unlock');
    expect(returnParams(await payWithPin(first, '+21650004321')).status).toBe('SUCCEEDED');
    const before = (await deliveredEvents()).length;
    const second = await newPayment('offer_full_unlock');
    const { page } = await enterNumber(second, '+21650004321', 'WIFI');
    expect(page.html).toContain('(CAT-109)');
    expect(await readPayment(second.paymentUid)).toMatchObject({ status: 'REQUIRES_ACTION' });
    expect((await readPayment(second.paymentUid)).failureCode).toBeUndefined();
    await world.sandbox.clock.advance(1801);
    expect(await readPayment(second.paymentUid)).toMatchObject({
      status: 'EXPIRED',
      failureCode: 'CAT-109',
    });
    expect((await deliveredEvents()).length).toBe(before);
  });

  it('with no number refused: EXPIRED without a failureCode', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    await world.sandbox.clock.advance(1801);
    const read = await readPayment(payment.paymentUid);
    expect(read.status).toBe('EXPIRED');
    expect(read.failureCode).toBeUndefined();
  });
});
