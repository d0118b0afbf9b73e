import { describe, expect, it, vi } from 'vitest';
import { memoryLedger } from '../ledger/memory-ledger.js';
import type { Subscription } from '../schemas/subscription.js';
import { memoryStore } from '../store/memory-store.js';
import { event, NOW, offers, paymentEvent, SECRET, signedRequest } from '../test-support/fixtures.js';
import { createWebhookHandler } from './create-webhook-handler.js';

function setup(confirm?: () => Promise<Subscription | undefined>) {
  const store = memoryStore();
  const handler = createWebhookHandler({
    secrets: SECRET,
    store,
    ledger: memoryLedger(),
    offers,
    logger: {},
    now: () => NOW,
    ...(confirm ? { confirm } : {}),
  });
  const history = () => store.listHistory({ accountKey: 'user_1', limit: 50 });
  return { store, handler, history };
}

const purchase = paymentEvent('payment.succeeded', 0, 'off_monthly', { subscriptionUid: 'sub_1' });
const subscriptionEvent = (name: string, minutes: number, fields = {}) =>
  event(name, minutes, {
    subscriptionUid: 'sub_1',
    productUid: 'prod_premium',
    offerUid: 'off_monthly',
    ...fields,
  });

describe('the webhook handler’s history', () => {
  it('records an applied event with its key, source and the status before and after', async () => {
    const { handler, history } = setup();
    await handler(signedRequest(purchase));
    expect(await history()).toEqual([
      expect.objectContaining({
        accountKey: 'user_1',
        productUid: 'prod_premium',
        source: 'webhook',
        decision: 'applied',
        eventName: 'payment.succeeded',
        eventKey: expect.stringMatching(/payment\.succeeded/),
        occurredAt: purchase.occurredAt,
        paymentUid: 'pay_1',
        subscriptionUid: 'sub_1',
        statusBefore: null,
        statusAfter: 'ACTIVE',
        recordedAt: expect.any(String),
      }),
    ]);
  });

  it('records a duplicate delivery as duplicate, the entitlement unchanged', async () => {
    const { handler, history } = setup();
    await handler(signedRequest(purchase));
    await handler(signedRequest(purchase));
    const [latest] = await history();
    expect(latest).toMatchObject({ decision: 'duplicate', statusBefore: 'ACTIVE', statusAfter: 'ACTIVE' });
  });

  it('records an event older than the held one as stale', async () => {
    const { handler, history } = setup();
    await handler(signedRequest(purchase));
    await handler(
      signedRequest(subscriptionEvent('subscription.canceled', 20, { subscriptionStatus: 'CANCELED' })),
    );
    await handler(
      signedRequest(subscriptionEvent('entitlement.updated', 10, { subscriptionStatus: 'ACTIVE' })),
    );
    const [stale, canceled] = await history();
    expect(canceled).toMatchObject({
      eventName: 'subscription.canceled',
      decision: 'applied',
      statusAfter: 'REVOKED',
    });
    expect(stale).toMatchObject({
      eventName: 'entitlement.updated',
      decision: 'stale',
      statusBefore: 'REVOKED',
      statusAfter: 'REVOKED',
    });
  });

  it('records a same-instant tie settled by a read of the subscription', async () => {
    const read: Subscription = {
      subscriptionUid: 'sub_1',
      status: 'ACTIVE',
      productUid: 'prod_premium',
      offerUid: 'off_monthly',
      subscriberUid: 'sbr_1',
      currentPeriodEnd: '2026-12-21T12:00:00.000Z',
      cancelAt: null,
    };
    const { handler, history } = setup(async () => read);
    await handler(signedRequest(purchase));
    const scheduled = subscriptionEvent('subscription.updated', 10, {
      subscriptionStatus: 'PRE_CANCELED',
      cancelAt: '2026-12-21T12:00:00.000Z',
    });
    const withdrawn = subscriptionEvent('subscription.updated', 10, {
      subscriptionStatus: 'ACTIVE',
      cancelAt: null,
    });
    await handler(signedRequest(scheduled));
    await handler(signedRequest(withdrawn));
    const [latest] = await history();
    expect(latest).toMatchObject({
      eventName: 'subscription.updated',
      decision: 'tie_settled_by_read',
      statusAfter: 'ACTIVE',
    });
  });

  it('records an event that changes no access as unchanged', async () => {
    const { handler, history } = setup();
    await handler(signedRequest(purchase));
    await handler(signedRequest(paymentEvent('payment.failed', 5, 'off_monthly', { paymentUid: 'pay_2' })));
    const [latest] = await history();
    expect(latest).toMatchObject({
      eventName: 'payment.failed',
      decision: 'unchanged',
      statusAfter: 'ACTIVE',
    });
  });

  it('records nothing for a refused delivery, and nothing with history: false', async () => {
    const { handler, history } = setup();
    await handler(signedRequest(purchase, NOW, 'whsec_wrong'));
    expect(await history()).toEqual([]);
    const store = memoryStore();
    const quiet = createWebhookHandler({
      secrets: SECRET,
      store,
      ledger: memoryLedger(),
      offers,
      logger: {},
      now: () => NOW,
      history: false,
    });
    await quiet(signedRequest(purchase));
    expect(await store.listHistory({ accountKey: 'user_1', limit: 5 })).toEqual([]);
  });
});

describe('a refused signature', () => {
  it('is logged as an error naming DCB_WEBHOOK_SECRET and the rotation syntax, at most once a minute', async () => {
    const error = vi.fn();
    const handler = createWebhookHandler({
      secrets: SECRET,
      store: memoryStore(),
      ledger: memoryLedger(),
      offers,
      logger: { error, warn: vi.fn() },
      now: () => NOW,
    });
    for (let i = 0; i < 3; i++) {
      expect((await handler(signedRequest(purchase, NOW, 'whsec_other'))).status).toBe(401);
    }
    expect(error).toHaveBeenCalledTimes(1);
    const [, message] = error.mock.calls[0] ?? [];
    expect(message).toContain('DCB_WEBHOOK_SECRET');
    expect(message).toContain('DCB_WEBHOOK_SECRET=whsec_new,whsec_old');
    expect(handler.health().refused).toEqual({ signature_mismatch: 3 });
  });
});

describe('the webhook handler’s debug line', () => {
  const handlerLogging = (isLevelEnabled?: (level: string) => boolean) => {
    const debug = vi.fn();
    const handler = createWebhookHandler({
      secrets: SECRET,
      store: memoryStore(),
      ledger: memoryLedger(),
      offers,
      history: false,
      logger: { debug, ...(isLevelEnabled ? { isLevelEnabled } : {}) },
      now: () => NOW,
    });
    return { handler, debug };
  };

  it('says which event changed which entitlement, at debug', async () => {
    const { handler, debug } = handlerLogging();
    await handler(signedRequest(purchase));
    expect(debug).toHaveBeenCalledWith(
      expect.objectContaining({ event: 'payment.succeeded', accountKey: 'user_1', decision: 'applied' }),
      'dcbkit: webhook processed',
    );
  });

  it('is not built when the logger says debug is off (pino above debug)', async () => {
    const isLevelEnabled = vi.fn((level: string) => level !== 'debug');
    const { handler, debug } = handlerLogging(isLevelEnabled);
    expect((await handler(signedRequest(purchase))).status).toBe(200);
    expect(isLevelEnabled).toHaveBeenCalledWith('debug');
    expect(debug).not.toHaveBeenCalled();
  });
});
