import { describe, expect, it, vi } from 'vitest';
import { availableUnits, hasAccess } from '../access/has-access.js';
import { memoryLedger } from '../ledger/memory-ledger.js';
import type { Payment } from '../schemas/payment.js';
import { memoryStore } from '../store/memory-store.js';
import { at, event, NOW, offers, paymentEvent, SECRET, signedRequest } from '../test-support/fixtures.js';
import { createWebhookHandler } from '../webhooks/create-webhook-handler.js';
import { applyPaymentRead } from './apply-payment-read.js';

function payment(fields: Partial<Payment> = {}): Payment {
  return {
    object: 'payment',
    paymentUid: 'pay_1',
    mode: 'HOSTED',
    status: 'SUCCEEDED',
    checkoutUrl: 'https://checkout.example/c/pay_1',
    productUid: 'prod_credits',
    offerUid: 'off_credits',
    expiresAt: '2026-11-21T12:15:00.000Z',
    metadata: { accountKey: 'user_1' },
    orderId: 'ord_1',
    subscriberUid: 'sbr_1',
    ...fields,
  };
}

function setup() {
  const store = memoryStore();
  const accessGranted = vi.fn();
  const handler = createWebhookHandler({
    secrets: SECRET,
    store,
    ledger: memoryLedger(),
    offers,
    on: { accessGranted },
    now: () => NOW,
  });
  const grant = (read: Payment) =>
    applyPaymentRead(read, { store, offers, on: { accessGranted }, now: () => NOW });
  return { store, handler, grant, accessGranted };
}

describe('applyPaymentRead', () => {
  it('grants a SUCCEEDED payment read from the API, and the later webhook adds no second unit', async () => {
    const { store, handler, grant, accessGranted } = setup();
    const result = await grant(payment());
    expect(result.outcome).toBe('granted');
    expect(availableUnits(result.entitlement)).toBe(1);
    expect(accessGranted).toHaveBeenCalledWith(
      expect.objectContaining({ accountKey: 'user_1', source: 'payment_read' }),
    );

    const webhook = paymentEvent('payment.succeeded', 0, 'off_credits', { orderId: 'ord_1' });
    expect((await handler(signedRequest(webhook))).status).toBe(200);
    const after = await store.get('user_1', 'prod_credits');
    expect(availableUnits(after)).toBe(1);
    // Same status and units; the webhook only takes the record's marker over from the read.
    expect(after).toEqual({ ...result.entitlement, lastEventName: 'payment.succeeded', lastEventAt: at(0) });
    expect(accessGranted).toHaveBeenCalledOnce();
  });

  it('counts one unit when the read lacks the orderId its webhook carries (issue 25, item 7)', async () => {
    const { store, handler, grant } = setup();
    await grant(payment({ orderId: undefined }));
    const webhook = paymentEvent('payment.succeeded', 0, 'off_credits', { orderId: 'ord_1' });
    expect((await handler(signedRequest(webhook))).status).toBe(200);
    expect(availableUnits(await store.get('user_1', 'prod_credits'))).toBe(1);
  });

  it('counts one unit when two deliveries of one payment disagree on the orderId', async () => {
    const { store, handler } = setup();
    const withOrder = paymentEvent('payment.succeeded', 0, 'off_credits', { orderId: 'ord_1' });
    const withoutOrder = paymentEvent('payment.succeeded', 0, 'off_credits');
    expect((await handler(signedRequest(withoutOrder))).status).toBe(200);
    expect((await handler(signedRequest(withOrder))).status).toBe(200);
    expect(availableUnits(await store.get('user_1', 'prod_credits'))).toBe(1);
  });

  it('still counts a second purchase: its own payment and order', async () => {
    const { store, handler, grant } = setup();
    await grant(payment({ orderId: undefined }));
    const second = paymentEvent('payment.succeeded', 5, 'off_credits', {
      paymentUid: 'pay_2',
      orderId: 'ord_2',
    });
    expect((await handler(signedRequest(second))).status).toBe(200);
    expect(availableUnits(await store.get('user_1', 'prod_credits'))).toBe(2);
  });

  it('is a no-op for a payment its webhook already applied', async () => {
    const { store, handler, grant } = setup();
    await handler(signedRequest(paymentEvent('payment.succeeded', 0, 'off_credits', { orderId: 'ord_1' })));
    const before = await store.get('user_1', 'prod_credits');
    const result = await grant(payment());
    expect(result).toEqual({ outcome: 'already_applied', entitlement: before, previous: before });
    expect(availableUnits(await store.get('user_1', 'prod_credits'))).toBe(1);
  });

  it('grants a subscription, and its later webhook changes nothing but the marker', async () => {
    const { store, handler, grant } = setup();
    const subscription = payment({
      productUid: 'prod_premium',
      offerUid: 'off_monthly',
      subscriptionUid: 'sub_1',
    });
    const { entitlement } = await grant(subscription);
    expect(entitlement).toMatchObject({ status: 'ACTIVE', subscriptionUid: 'sub_1' });
    await handler(
      signedRequest(
        paymentEvent('payment.succeeded', 0, 'off_monthly', { orderId: 'ord_1', subscriptionUid: 'sub_1' }),
      ),
    );
    expect(await store.get('user_1', 'prod_premium')).toEqual({
      ...entitlement,
      lastEventName: 'payment.succeeded',
      lastEventAt: at(0),
    });
  });

  it.each([
    ['not_succeeded', payment({ status: 'PROCESSING' })],
    ['unknown_offer', payment({ offerUid: 'off_elsewhere' })],
    ['no_account', payment({ metadata: {}, subscriberUid: undefined })],
  ] as const)('writes nothing and says %s', async (outcome, read) => {
    const store = memoryStore();
    const result = await applyPaymentRead(read, { store, offers: offers.list });
    expect(result).toEqual({ outcome, entitlement: undefined });
    expect(await store.listByAccount('user_1')).toEqual([]);
  });

  describe('a read taken before the webhooks land never masks them', () => {
    // The subscription started at minute 0 and ended at minute 10; the return page opens at minute 20.
    const subscriptionPayment = payment({
      productUid: 'prod_premium',
      offerUid: 'off_monthly',
      subscriptionUid: 'sub_1',
    });
    const paid = paymentEvent('payment.succeeded', 0, 'off_monthly', {
      orderId: 'ord_1',
      subscriptionUid: 'sub_1',
    });
    const ended = event('subscription.expired', 10, { subscriptionUid: 'sub_1', subscriberUid: 'sbr_1' });
    const returnPageAt = new Date(Date.parse(at(20)));

    async function webhooksOnly() {
      const { store, handler } = setup();
      for (const e of [paid, ended]) await handler(signedRequest(e));
      return store.get('user_1', 'prod_premium');
    }

    it.each([
      ['payment first', [paid, ended]],
      ['end first', [ended, paid]],
    ] as const)('without a subscription read (%s): the webhooks decide', async (_order, webhooks) => {
      const { store, handler } = setup();
      await applyPaymentRead(subscriptionPayment, { store, offers, now: () => returnPageAt });
      for (const e of webhooks) await handler(signedRequest(e));
      const after = await store.get('user_1', 'prod_premium');
      // Before the fix the read was stamped minute 20 and outranked both webhooks: ACTIVE for good.
      expect(after).toEqual(await webhooksOnly());
      expect(hasAccess(after, NOW)).toBe(false);
    });

    it('with readSubscription: access ends at once, and the webhooks then give their own record', async () => {
      const { store, handler } = setup();
      const readSubscription = vi.fn(async () => ({
        subscriptionUid: 'sub_1',
        status: 'EXPIRED' as const,
        productUid: 'prod_premium',
        offerUid: 'off_monthly',
        subscriberUid: 'sbr_1',
        currentPeriodEnd: at(10),
        cancelAt: null,
      }));
      const { entitlement } = await applyPaymentRead(subscriptionPayment, {
        store,
        offers,
        readSubscription,
        now: () => returnPageAt,
      });
      expect(readSubscription).toHaveBeenCalledWith('sub_1');
      expect(entitlement).toMatchObject({ status: 'REVOKED', lastEventName: 'read:subscription.expired' });
      for (const e of [ended, paid]) await handler(signedRequest(e));
      const after = await store.get('user_1', 'prod_premium');
      expect({ ...after, currentPeriodEnd: null }).toEqual({
        ...(await webhooksOnly()),
        currentPeriodEnd: null,
      });
    });
  });

  it('a declined purchase grants nothing, even when older units remain: the outcome says so', async () => {
    const { store, grant } = setup();
    await grant(payment());
    const declined = await grant(payment({ paymentUid: 'pay_2', status: 'FAILED', orderId: undefined }));
    expect(declined).toEqual({ outcome: 'not_succeeded', entitlement: undefined });
    expect(availableUnits(await store.get('user_1', 'prod_credits'))).toBe(1);
  });
});
