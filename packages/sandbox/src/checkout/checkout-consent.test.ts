import { paymentSchema } from '@dcbkit/core/schemas';
import { describe, expect, it } from 'vitest';
import { apiGet, createPayment, dataOf, getToken, paymentBody } from '../test-support/api-client.js';
import { linkBack, returnParams, useCheckoutWorld } from '../test-support/checkout-world.js';
import { addApplication } from '../test-support/sandbox-fixture.js';
import { CheckoutBrowser } from '../testing/checkout-browser.js';

const { world, start, newPayment, readPayment, latestPin, deliveredEvents, enterNumber, payWithPin } =
  useCheckoutWorld();

describe('consent methods', () => {
  it('HEADER_ENRICHMENT recognises the line on mobile data, on the operator’s own page', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const { browser, page } = await enterNumber(payment, '+21690000000', 'MOBILE_DATA');
    expect(page.html).toContain('Your line was recognised');
    expect(page.html).toContain('Confirmation page of Carthage Telecom');
    expect(world.sandbox.sms()).toHaveLength(0);
    expect(returnParams(await browser.submit(page, '/consent/header-enrichment')).status).toBe('SUCCEEDED');
    expect((await deliveredEvents()).map((event) => event.event)).toEqual(['payment.succeeded']);
  });

  it('HEADER_ENRICHMENT falls back to a PIN on Wi-Fi', async () => {
    await start();
    const payment = await newPayment('offer_full_unlock');
    const { browser, page } = await enterNumber(payment, '+21640000000', 'WIFI');
    expect(page.html).toContain('Enter the code sent by SMS');
    expect(page.forms.some((form) => form.action.endsWith('/consent/header-enrichment'))).toBe(false);
    const done = await browser.submit(page, '/consent/pin', { pin: latestPin(payment.paymentUid) });
    expect(returnParams(done).status).toBe('SUCCEEDED');
  });

  it('MO_SMS: the subscriber sends a keyword to the short code', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const { browser, page } = await enterNumber(payment, '+21690000000', 'WIFI');
    const switchForm = page.forms.find(
      (form) => form.action.endsWith('/method') && form.fields.method === 'MO_SMS',
    );
    expect(switchForm).toBeDefined();
    const moPage = await browser.submit({ ...page, forms: switchForm ? [switchForm] : [] }, '/method');
    expect(moPage.html).toContain('Confirm by SMS');
    expect(moPage.html).toContain('85050');
    const wrong = await browser.submit(moPage, '/consent/mo-sms', { keyword: 'HELLO' });
    expect(wrong.status).toBe(422);
    const done = await browser.submit(wrong, '/consent/mo-sms');
    expect(returnParams(done).status).toBe('SUCCEEDED');
    const sent = world.sandbox
      .sms({ paymentUid: payment.paymentUid })
      .filter((message) => message.direction === 'MO');
    expect(sent.map((message) => [message.from, message.to])).toEqual([
      ['+21690000000', '85050'],
      ['+21690000000', '85050'],
    ]);
  });

  it('follows the consent policy: methods allowed per offer type, and none on Wi-Fi for a network-only operator', async () => {
    await start((config) => {
      config.consentPolicy.allowedByOfferType = { NON_CONSUMABLE: ['PIN'] };
      const carthage = config.operators.find((operator) => operator.code === 'CARTHAGE_TELECOM');
      if (carthage) carthage.consentMethods = ['HEADER_ENRICHMENT'];
      const sahel = config.operators.find((operator) => operator.code === 'SAHEL_MOBILE');
      if (sahel) sahel.consentMethods = ['PIN', 'HEADER_ENRICHMENT'];
    });
    const unlock = await newPayment('offer_full_unlock');
    const { page } = await enterNumber(unlock, '+21620000000', 'MOBILE_DATA');
    expect(page.html).toContain('Enter the code sent by SMS');
    const dayPass = await newPayment('offer_day_pass');
    const onWifi = await enterNumber(dayPass, '+21690000000', 'WIFI');
    expect(onWifi.page.status).toBe(422);
    expect(onWifi.page.html).toContain('needs mobile data');
  });
});

describe('test numbers', () => {
  it.each([
    ['+21620000101', 'PAY-101', 'Your balance is insufficient.'],
    ['+21620000103', 'PAY-103', 'The operator declined the payment.'],
  ])('%s fails the charge with %s and payment.failed', async (msisdn, code, text) => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const failed = await payWithPin(payment, msisdn);
    expect(failed.leftTo).toBeUndefined();
    expect(failed.html).toContain(`${text} (${code})`);
    // The failure stays on screen until the subscriber follows the link back (WCAG 2.2.1).
    expect(failed.html).not.toContain('http-equiv="refresh"');
    expect(failed.html).toContain('Nothing was charged.');
    expect(failed.html).not.toContain('Charged to your mobile phone bill');
    expect(returnParams({ ...failed, leftTo: linkBack(failed) })).toEqual({
      paymentUid: payment.paymentUid,
      status: 'FAILED',
    });
    const read = await readPayment(payment.paymentUid);
    expect(read.status).toBe('FAILED');
    expect(read.orderId).toBeUndefined();
    const events = await deliveredEvents();
    expect(events).toEqual([
      expect.objectContaining({
        event: 'payment.failed',
        status: 'FAILED',
        subscriberUid: read.subscriberUid,
        metadata: { userId: 'user_42' },
      }),
    ]);
    expect(events[0]?.orderId).toBeUndefined();
  });

  it.each([
    ['+21690000101', 'PAY-101'],
    ['+21690000103', 'PAY-103'],
  ])('%s fails with %s on the network-recognition operator too', async (msisdn, code) => {
    await start();
    const payment = await newPayment('offer_full_unlock');
    const { browser, page } = await enterNumber(payment, msisdn, 'MOBILE_DATA');
    const failed = await browser.submit(page, '/consent/header-enrichment');
    expect(failed.html).toContain(`(${code})`);
    expect((await deliveredEvents()).map((event) => event.event)).toEqual(['payment.failed']);
  });

  it.each([
    ['+21620000301', 'RSK-101', 'This line has opted out of carrier billing.'],
    ['+21690000301', 'RSK-101', 'This line has opted out of carrier billing.'],
    ['+21620000202', 'SBR-102', 'This mobile number is invalid.'],
    ['20 000 000', 'SBR-102', 'This mobile number is invalid.'],
    ['+21670000000', 'SBR-104', 'This mobile operator is not supported for this offer.'],
  ])(
    '%s is refused at the number step with %s, and the subscriber may try another number',
    async (msisdn, code, text) => {
      await start();
      const payment = await newPayment('offer_day_pass');
      const { browser, page } = await enterNumber(payment, msisdn, 'WIFI');
      expect(page.status).toBe(422);
      expect(page.html).toContain(`${text} (${code})`);
      expect(page.forms.find((form) => form.action.endsWith('/number'))?.fields.msisdn).toBe(msisdn);
      expect((await readPayment(payment.paymentUid)).status).toBe('REQUIRES_ACTION');
      expect(world.sandbox.sms()).toHaveLength(0);
      const retried = await browser.submit(page, '/number', { msisdn: '+21620000000' });
      expect(retried.html).toContain('Enter the code sent by SMS');
      expect(await deliveredEvents()).toEqual([]);
    },
  );

  it('a slow line stays PROCESSING on the clock, then succeeds', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const processing = await payWithPin(payment, '+21620000999');
    expect(processing.html).toContain('Your operator is processing the payment');
    expect(processing.html).toContain('<meta http-equiv="refresh" content="2">');
    expect((await readPayment(payment.paymentUid)).status).toBe('PROCESSING');
    expect(await deliveredEvents()).toEqual([]);
    await world.sandbox.clock.advance(29);
    expect((await readPayment(payment.paymentUid)).status).toBe('PROCESSING');
    await world.sandbox.clock.advance(1);
    expect((await readPayment(payment.paymentUid)).status).toBe('SUCCEEDED');
    expect((await deliveredEvents()).map((event) => [event.event, event.occurredAt])).toEqual([
      ['payment.succeeded', '2030-01-01T00:00:30.000Z'],
    ]);
    const back = await new CheckoutBrowser(world.sandbox.checkoutBaseUrl).open(payment.checkoutUrl);
    expect(returnParams(back).status).toBe('SUCCEEDED');
  });

  it('a line short of balance can still start a free trial: nothing is charged', async () => {
    await start();
    const payment = await newPayment('offer_premium_monthly');
    expect(returnParams(await payWithPin(payment, '+21620000101')).status).toBe('SUCCEEDED');
  });

  it('any other number of a configured operator succeeds', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    expect(returnParams(await payWithPin(payment, '+21655443322')).status).toBe('SUCCEEDED');
  });
});

describe('subscriberUid', () => {
  it('is stable per application and number, differs across numbers and applications, and hides the number', async () => {
    let other = { clientId: '', clientSecret: '' };
    await start((config) => {
      other = addApplication(config, 'svc_test_other', ['payments']);
    });
    const pay = async (msisdn: string, accessToken = world.token) => {
      const created = await createPayment(world.sandbox, accessToken, paymentBody('offer_day_pass'));
      const payment = dataOf(created, paymentSchema);
      await payWithPin(payment, msisdn);
      return dataOf(
        await apiGet(world.sandbox, `/v1/payments/${payment.paymentUid}`, accessToken),
        paymentSchema,
      ).subscriberUid;
    };
    const first = await pay('+21620000000');
    expect(await pay('+21620000000')).toBe(first);
    expect(await pay('+21620000001')).not.toBe(first);
    const otherToken = await getToken(world.sandbox, other.clientId, other.clientSecret);
    expect(await pay('+21620000000', otherToken)).not.toBe(first);
    expect(first).not.toContain('20000000');
  });
});
