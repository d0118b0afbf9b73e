import { paymentSchema } from '@dcbkit/core/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../start/start-sandbox.js';
import { createPayment, dataOf, getToken, paymentBody } from '../test-support/api-client.js';
import { startTestSandbox } from '../test-support/sandbox-fixture.js';
import { createCheckoutDriver } from './checkout-driver.js';
import { SandboxCheckoutError } from './checkout-error.js';

let sandbox: Sandbox;
afterEach(() => sandbox.close());

async function newPayment(offerUid: string, extra: Record<string, unknown> = {}) {
  const token = await getToken(sandbox);
  return dataOf(await createPayment(sandbox, token, paymentBody(offerUid, extra)), paymentSchema);
}

describe('createCheckoutDriver', () => {
  it.each(['PIN', 'HEADER_ENRICHMENT', 'MO_SMS'] as const)(
    'pays by %s and follows the return',
    async (method) => {
      sandbox = await startTestSandbox();
      const checkout = createCheckoutDriver(sandbox);
      const payment = await newPayment('offer_full_unlock');
      const outcome = await checkout.pay(payment.checkoutUrl, { method });
      expect(outcome).toMatchObject({ paymentUid: payment.paymentUid, status: 'SUCCEEDED', method });
      expect(outcome.msisdn).toMatch(/^\+216[0-9]{8}$/);
      expect(Object.fromEntries(outcome.returnUrl?.searchParams ?? [])).toEqual({
        paymentUid: payment.paymentUid,
        status: 'SUCCEEDED',
      });
      expect(await checkout.status(payment.paymentUid)).toBe('SUCCEEDED');
    },
  );

  it('pays the same one-time item twice with fresh lines, and a trial twice', async () => {
    sandbox = await startTestSandbox();
    const checkout = createCheckoutDriver(sandbox, { locale: 'ar' });
    for (const offerUid of [
      'offer_full_unlock',
      'offer_full_unlock',
      'offer_premium_monthly',
      'offer_premium_monthly',
    ]) {
      const payment = await newPayment(offerUid);
      expect((await checkout.pay(payment.checkoutUrl)).status).toBe('SUCCEEDED');
    }
  });

  it.each([
    ['INSUFFICIENT_BALANCE', 'PIN'],
    ['DECLINED', 'HEADER_ENRICHMENT'],
    ['WRONG_PIN', undefined],
  ] as const)('fails a payment because of %s', async (because, method) => {
    sandbox = await startTestSandbox();
    const checkout = createCheckoutDriver(sandbox);
    const payment = await newPayment('offer_day_pass');
    const outcome = await checkout.fail(payment.checkoutUrl, { because, ...(method ? { method } : {}) });
    expect(outcome.status).toBe('FAILED');
    expect(outcome.returnUrl?.searchParams.get('status')).toBe('FAILED');
    expect(outcome.page.html).not.toContain('http-equiv="refresh"');
  });

  it('explains why a free trial cannot fail for a balance, and fails it by wrong PINs', async () => {
    sandbox = await startTestSandbox();
    const checkout = createCheckoutDriver(sandbox);
    const trial = await newPayment('offer_premium_monthly');
    await expect(checkout.fail(trial.checkoutUrl, { because: 'INSUFFICIENT_BALANCE' })).rejects.toThrow(
      /free trial charges nothing/,
    );
    const another = await newPayment('offer_premium_monthly');
    expect((await checkout.fail(another.checkoutUrl, { because: 'WRONG_PIN' })).status).toBe('FAILED');
  });

  it('abandons, reads the PIN and moves the clock', async () => {
    sandbox = await startTestSandbox();
    const checkout = createCheckoutDriver(sandbox.apiBaseUrl);
    const left = await newPayment('offer_day_pass');
    expect(await checkout.abandon(left.checkoutUrl)).toMatchObject({ status: 'FAILED', method: null });
    // Ended: nothing left to abandon, said with the driver's typed error.
    await expect(checkout.abandon(left.checkoutUrl)).rejects.toThrow(SandboxCheckoutError);
    await expect(checkout.readPin(left.paymentUid)).rejects.toThrow(SandboxCheckoutError);
    const before = sandbox.clock.now().getTime();
    await checkout.advanceClock(90);
    expect(sandbox.clock.now().getTime() - before).toBe(90_000);
  });

  it('throws a typed error with the spec code when the checkout refuses the number or lacks the method', async () => {
    sandbox = await startTestSandbox();
    const checkout = createCheckoutDriver(sandbox);
    const payment = await newPayment('offer_day_pass');
    const refused = await checkout
      .pay(payment.checkoutUrl, { msisdn: '+21620000301' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SandboxCheckoutError);
    expect(refused).toMatchObject({ code: 'RSK-101', message: expect.stringContaining('opted out') });
    // Sahel Mobile confirms by PIN only.
    await expect(
      checkout.pay(payment.checkoutUrl, { method: 'MO_SMS', msisdn: '+21620000000' }),
    ).rejects.toThrow(/MO_SMS is not offered/);
    await expect(checkout.pay('https://example.invalid/nope')).rejects.toThrow(/no checkout URL/);
  });
});
