import { describe, expect, it, vi } from 'vitest';
import type { DcbClient } from '../client/create-client.js';
import { DcbError } from '../errors/dcb-error.js';
import type { Subscription } from '../schemas/subscription.js';
import {
  at,
  DAY,
  event,
  NOW,
  offers,
  paymentEvent,
  SECRET,
  signedRequest,
} from '../test-support/fixtures.js';
import { createDcbKit } from './create-dcb-kit.js';

const READ: Subscription = {
  subscriptionUid: 'sub_1',
  status: 'CANCELED',
  productUid: 'prod_premium',
  offerUid: 'off_monthly',
  subscriberUid: 'sbr_1',
  currentPeriodEnd: '2026-12-21T12:00:00.000Z',
  cancelAt: null,
};

function kitWith(read: () => Promise<Subscription>, checkConnection = async () => {}) {
  const client = {
    payments: {},
    subscriptions: { retrieve: vi.fn(read) },
    checkConnection,
  } as unknown as DcbClient;
  const kit = createDcbKit({
    client,
    webhookSecrets: SECRET,
    offers,
    logger: {},
    now: () => NOW,
  });
  return { kit, client };
}

describe('kit.explain', () => {
  it('explains access and the history that made it, from the store alone by default', async () => {
    const { kit, client } = kitWith(async () => READ);
    // The handler checks signatures against the real time: sign now.
    await kit.webhook(
      signedRequest(
        paymentEvent('payment.succeeded', 0, 'off_monthly', { subscriptionUid: 'sub_1' }),
        new Date(),
      ),
    );
    const explained = await kit.explain('user_1');
    expect(explained).toMatchObject({
      accountKey: 'user_1',
      historyKept: true,
      pendingPayments: [],
      products: [
        {
          productUid: 'prod_premium',
          offer: { offerUid: 'off_monthly' },
          entitlement: { status: 'ACTIVE' },
          reason: { code: 'active', hasAccess: true, lastEventName: 'payment.succeeded' },
          history: [{ decision: 'applied', eventName: 'payment.succeeded', statusAfter: 'ACTIVE' }],
        },
      ],
    });
    expect(explained.products[0]?.service).toBeUndefined();
    expect(client.subscriptions.retrieve).not.toHaveBeenCalled();
  });

  it('with read: true, sets the service’s view beside the store’s and flags the drift', async () => {
    const { kit } = kitWith(async () => READ);
    await kit.webhook(
      signedRequest(
        paymentEvent('payment.succeeded', 0, 'off_monthly', { subscriptionUid: 'sub_1' }),
        new Date(),
      ),
    );
    const [product] = (await kit.explain('user_1', { read: true })).products;
    expect(product?.service).toMatchObject({
      status: 'REVOKED',
      drift: true,
      subscription: { status: 'CANCELED' },
    });
  });

  it('a resumed free trial: trialing until its end, where the first charge comes, though the service says ACTIVE', async () => {
    const trialEndsAt = at((7 * DAY) / 60_000);
    // A service that gives a resumed trial the resume row's ACTIVE, its trial end still ahead.
    const resumedRead: Subscription = {
      ...READ,
      productUid: 'prod_trial',
      offerUid: 'off_trial',
      status: 'ACTIVE',
      currentPeriodEnd: trialEndsAt,
      trialEndsAt,
    };
    const { kit } = kitWith(async () => resumedRead);
    const subscription = { subscriptionUid: 'sub_1', subscriberUid: 'sbr_1', trialEndsAt };
    const life = [
      paymentEvent('payment.succeeded', 0, 'off_trial', { ...subscription, subscriptionStatus: 'TRIALING' }),
      event('subscription.updated', 5, {
        ...subscription,
        productUid: 'prod_trial',
        offerUid: 'off_trial',
        metadata: { accountKey: 'user_1' },
        subscriptionStatus: 'PRE_CANCELED',
        cancelAt: trialEndsAt,
      }),
      event('subscription.updated', 10, {
        ...subscription,
        productUid: 'prod_trial',
        offerUid: 'off_trial',
        metadata: { accountKey: 'user_1' },
        subscriptionStatus: 'ACTIVE',
        cancelAt: null,
      }),
    ];
    for (const delivery of life) await kit.webhook(signedRequest(delivery, new Date()));
    const [product] = (await kit.explain('user_1', { read: true })).products;
    expect(product).toMatchObject({
      entitlement: { status: 'TRIALING', trialEndsAt },
      reason: { code: 'trialing', hasAccess: true, until: trialEndsAt, firstChargeAt: trialEndsAt },
      history: [{ statusBefore: 'PRE_CANCELED', statusAfter: 'TRIALING' }, {}, {}],
      service: { status: 'TRIALING', drift: false },
    });
  });

  it('says no_entitlement for a product never bought, and the read’s failure code', async () => {
    const { kit } = kitWith(async () => {
      throw new DcbError('service_unreachable', 'down');
    });
    const none = await kit.explain('nobody', { productUid: 'prod_unlock' });
    expect(none.products).toMatchObject([
      { productUid: 'prod_unlock', entitlement: undefined, reason: { code: 'no_entitlement' } },
    ]);
    await kit.webhook(
      signedRequest(
        paymentEvent('payment.succeeded', 0, 'off_monthly', { subscriptionUid: 'sub_1' }),
        new Date(),
      ),
    );
    const [product] = (await kit.explain('user_1', { read: true })).products;
    expect(product?.service).toEqual({ error: 'service_unreachable', drift: false });
  });

  it('keeps an event that changed nothing in the history: why a failed payment gave no access', async () => {
    const { kit } = kitWith(async () => READ);
    await kit.webhook(
      signedRequest(paymentEvent('payment.failed', 0, 'off_unlock', { paymentUid: 'pay_9' }), new Date()),
    );
    const explained = await kit.explain('user_1', { productUid: 'prod_unlock' });
    expect(explained.products[0]).toMatchObject({
      reason: { code: 'no_entitlement' },
      history: [
        { eventName: 'payment.failed', decision: 'unchanged', statusBefore: null, statusAfter: null },
      ],
    });
  });
});

describe('kit.webhookHealth and kit.checkReadiness', () => {
  it('counts accepted, duplicate and refused deliveries by code', async () => {
    const { kit } = kitWith(async () => READ);
    const purchase = signedRequest(paymentEvent('payment.succeeded', 0, 'off_monthly'), new Date());
    await kit.webhook(purchase);
    await kit.webhook(purchase);
    await kit.webhook(
      signedRequest(paymentEvent('payment.succeeded', 0, 'off_monthly'), new Date(), 'whsec_wrong'),
    );
    await kit.webhook({ rawBody: Buffer.from('{}'), headers: {} });
    expect(kit.webhookHealth()).toMatchObject({
      accepted: 1,
      duplicate: 1,
      refused: { signature_mismatch: 1, header_missing: 1 },
      failed: {},
      lastAcceptedAt: expect.any(String),
    });
  });

  it('is ready when the store answers and a token can be had; says which part is not', async () => {
    expect(await kitWith(async () => READ).kit.checkReadiness()).toEqual({
      ready: true,
      store: { ok: true },
      service: { ok: true },
    });
    const refused = kitWith(
      async () => READ,
      async () => {
        throw new DcbError('token_refused', 'wrong secret');
      },
    );
    expect(await refused.kit.checkReadiness()).toMatchObject({
      ready: false,
      store: { ok: true },
      service: { ok: false, code: 'token_refused' },
    });
  });
});
