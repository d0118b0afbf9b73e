import { describe, expect, it, vi } from 'vitest';
import type { DcbClient } from '../client/create-client.js';
import type { Subscription } from '../schemas/subscription.js';
import { memoryEntitlements } from '../store/memory-entitlements.js';
import { NOW, offers, paymentEvent, SECRET, signedRequest } from '../test-support/fixtures.js';
import { createDcbKit } from './create-dcb-kit.js';

function read(subscriptionUid: string): Subscription {
  return {
    subscriptionUid,
    status: 'ACTIVE',
    productUid: 'prod_premium',
    offerUid: 'off_monthly',
    subscriberUid: 'sbr_1',
    currentPeriodEnd: '2026-12-21T12:00:00.000Z',
    cancelAt: null,
  };
}

function kitOn(store?: ReturnType<typeof memoryEntitlements>['store']) {
  const retrieve = vi.fn(async (uid: string) => read(uid));
  const client = { payments: {}, subscriptions: { retrieve }, checkConnection: async () => {} };
  const kit = createDcbKit({
    client: client as unknown as DcbClient,
    webhookSecrets: SECRET,
    offers,
    logger: {},
    now: () => NOW,
    ...(store ? { store } : {}),
  });
  return { kit, retrieve };
}

/** Account `accountKey` buys the monthly subscription on line sbr_1. */
function bought(accountKey: string, subscriptionUid: string, paymentUid: string) {
  return signedRequest(
    paymentEvent('payment.succeeded', 0, 'off_monthly', {
      subscriptionUid,
      paymentUid,
      metadata: { accountKey },
    }),
    new Date(),
  );
}

describe('kit.explainLine', () => {
  it('lists the accounts on a line and the product it pays twice, from the store alone by default', async () => {
    const { kit, retrieve } = kitOn();
    await kit.webhook(bought('user_a', 'sub_1', 'pay_1'));
    await kit.webhook(bought('user_b', 'sub_2', 'pay_2'));
    const explained = await kit.explainLine('sbr_1');
    expect(explained).toMatchObject({
      subscriberUid: 'sbr_1',
      linesKept: true,
      accounts: [
        { accountKey: 'user_a', products: [{ productUid: 'prod_premium', reason: { hasAccess: true } }] },
        { accountKey: 'user_b', products: [{ productUid: 'prod_premium', reason: { hasAccess: true } }] },
      ],
      paysTwice: [
        {
          productUid: 'prod_premium',
          subscriptionUids: ['sub_1', 'sub_2'],
          accountKeys: ['user_a', 'user_b'],
        },
      ],
    });
    expect(explained.accounts[0]?.products[0]).not.toHaveProperty('service');
    expect(retrieve).not.toHaveBeenCalled();
  });

  it('a line with one account pays once; a line never seen is empty', async () => {
    const { kit } = kitOn();
    await kit.webhook(bought('user_a', 'sub_1', 'pay_1'));
    expect((await kit.explainLine('sbr_1')).paysTwice).toEqual([]);
    expect(await kit.explainLine('sbr_unknown')).toMatchObject({
      accounts: [],
      paysTwice: [],
      linesKept: true,
    });
  });

  it('with read: true, reads each live subscription at the service', async () => {
    const { kit, retrieve } = kitOn();
    await kit.webhook(bought('user_a', 'sub_1', 'pay_1'));
    await kit.webhook(bought('user_b', 'sub_2', 'pay_2'));
    const explained = await kit.explainLine('sbr_1', { read: true });
    expect(retrieve.mock.calls.map(([uid]) => uid).sort()).toEqual(['sub_1', 'sub_2']);
    expect(explained.accounts[1]?.products[0]?.service).toMatchObject({
      status: 'ACTIVE',
      drift: false,
      subscription: { subscriptionUid: 'sub_2' },
    });
  });

  it('says so when the store cannot answer by line', async () => {
    const { store } = memoryEntitlements();
    const { listBySubscriberUid: _, ...withoutLines } = store;
    const { kit } = kitOn(withoutLines as typeof store);
    await kit.webhook(bought('user_a', 'sub_1', 'pay_1'));
    expect(await kit.explainLine('sbr_1')).toMatchObject({ accounts: [], paysTwice: [], linesKept: false });
  });
});
