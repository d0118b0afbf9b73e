import { describe, expect, it, vi } from 'vitest';
import type { Payment } from '../../schemas/payment.js';
import { NOW, offers, paymentEvent, SECRET, signedRequest } from '../fixtures.js';
import { memoryLedger } from '../ledger/memory-ledger.js';
import { availableUnits } from '../rules/has-access.js';
import { memoryStore } from '../store/memory-store.js';
import { createWebhookHandler } from './create-webhook-handler.js';
import { grantFromPayment } from './grant-from-payment.js';

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
  return { store, handler, accessGranted };
}

describe('grantFromPayment', () => {
  it('grants a SUCCEEDED payment read from the API, and the later webhook adds no second unit', async () => {
    const { store, handler, accessGranted } = setup();
    const result = await handler.grantFromPayment(payment());
    expect(result.outcome).toBe('granted');
    expect(availableUnits(result.entitlement)).toBe(1);
    expect(accessGranted).toHaveBeenCalledWith(
      expect.objectContaining({ accountKey: 'user_1', source: 'payment_read' }),
    );

    const webhook = paymentEvent('payment.succeeded', 0, 'off_credits', { orderId: 'ord_1' });
    expect((await handler(signedRequest(webhook))).status).toBe(200);
    const after = await store.get('user_1', 'prod_credits');
    expect(availableUnits(after)).toBe(1);
    expect(after).toEqual(result.entitlement);
    expect(accessGranted).toHaveBeenCalledOnce();
  });

  it('is a no-op for a payment its webhook already applied', async () => {
    const { store, handler } = setup();
    await handler(signedRequest(paymentEvent('payment.succeeded', 0, 'off_credits', { orderId: 'ord_1' })));
    const before = await store.get('user_1', 'prod_credits');
    const result = await handler.grantFromPayment(payment());
    expect(result).toEqual({ outcome: 'already_applied', entitlement: before });
    expect(availableUnits(await store.get('user_1', 'prod_credits'))).toBe(1);
  });

  it('grants a subscription, and its later webhook changes nothing', async () => {
    const { store, handler } = setup();
    const subscription = payment({
      productUid: 'prod_premium',
      offerUid: 'off_monthly',
      subscriptionUid: 'sub_1',
    });
    const { entitlement } = await handler.grantFromPayment(subscription);
    expect(entitlement).toMatchObject({ status: 'ACTIVE', subscriptionUid: 'sub_1' });
    await handler(
      signedRequest(
        paymentEvent('payment.succeeded', 0, 'off_monthly', { orderId: 'ord_1', subscriptionUid: 'sub_1' }),
      ),
    );
    expect(await store.get('user_1', 'prod_premium')).toEqual(entitlement);
  });

  it.each([
    ['not_succeeded', payment({ status: 'PROCESSING' })],
    ['unknown_offer', payment({ offerUid: 'off_elsewhere' })],
    ['no_account', payment({ metadata: {}, subscriberUid: undefined })],
  ] as const)('writes nothing and says %s', async (outcome, read) => {
    const store = memoryStore();
    const result = await grantFromPayment(read, { store, offers: offers.list });
    expect(result).toEqual({ outcome, entitlement: undefined });
    expect(await store.listByAccount('user_1')).toEqual([]);
  });
});
