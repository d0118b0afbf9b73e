import { describe, expect, it, vi } from 'vitest';
import { hasAccess } from '../access/has-access.js';
import type { DcbClient } from '../client/create-client.js';
import { DcbError } from '../errors/dcb-error.js';
import { createDcbKit } from '../kit/create-dcb-kit.js';
import type { LinePolicy } from '../schemas/line-pays-twice.js';
import type { Subscription } from '../schemas/subscription.js';
import { memoryStore } from '../store/memory-store.js';
import { NOW, offers, paymentEvent, SECRET, signedRequest } from '../test-support/fixtures.js';

function subscription(subscriptionUid: string, fields: Partial<Subscription> = {}): Subscription {
  return {
    subscriptionUid,
    status: 'ACTIVE',
    productUid: 'prod_premium',
    offerUid: 'off_monthly',
    subscriberUid: 'sbr_1',
    currentPeriodEnd: '2026-12-21T12:00:00.000Z',
    cancelAt: null,
    ...fields,
  };
}

const CANCEL_AT = '2026-12-21T12:00:00.000Z';

function kitWith(
  linePolicy: LinePolicy | undefined,
  cancel = async (uid: string) => subscription(uid, { status: 'PRE_CANCELED', cancelAt: CANCEL_AT }),
) {
  const subscriptions = {
    retrieve: vi.fn(async (uid: string) => subscription(uid)),
    cancel: vi.fn(cancel),
  };
  const client = {
    payments: { retrieve: vi.fn() },
    subscriptions,
    checkConnection: async () => {},
  } as unknown as DcbClient;
  const linePaysTwice = vi.fn();
  const onError = vi.fn();
  const warn = vi.fn();
  const store = memoryStore();
  const kit = createDcbKit({
    client,
    webhookSecrets: SECRET,
    offers,
    store,
    logger: { warn },
    onError,
    now: () => NOW,
    on: { linePaysTwice },
    ...(linePolicy ? { linePolicy } : {}),
  });
  return { kit, store, subscriptions, linePaysTwice, onError, warn };
}

function bought(accountKey: string, subscriptionUid: string, paymentUid: string, minutes = 0) {
  return signedRequest(
    paymentEvent('payment.succeeded', minutes, 'off_monthly', {
      subscriptionUid,
      paymentUid,
      metadata: { accountKey },
    }),
    new Date(),
  );
}

async function lineEntries(store: ReturnType<typeof memoryStore>, accountKey: string) {
  const entries = await store.listHistory({ accountKey, limit: 50 });
  return entries.filter((entry) => entry.decision === 'line_pays_twice');
}

describe('a line that pays twice', () => {
  it('is recorded in both accounts, logged, reported and heard; both keep access (report, the default)', async () => {
    const { kit, store, subscriptions, linePaysTwice, onError, warn } = kitWith(undefined);
    expect((await kit.webhook(bought('user_a', 'sub_1', 'pay_1'))).status).toBe(200);
    expect(linePaysTwice).not.toHaveBeenCalled();
    expect((await kit.webhook(bought('user_b', 'sub_2', 'pay_2'))).status).toBe(200);
    for (const [account, sub] of [
      ['user_a', 'sub_1'],
      ['user_b', 'sub_2'],
    ] as const) {
      expect(await lineEntries(store, account)).toEqual([
        expect.objectContaining({ subscriberUid: 'sbr_1', subscriptionUid: sub, paymentUid: 'pay_2' }),
      ]);
    }
    expect(linePaysTwice).toHaveBeenCalledOnce();
    expect(linePaysTwice.mock.calls[0]?.[0]).toMatchObject({
      subscriberUid: 'sbr_1',
      productUid: 'prod_premium',
      subscriptionUids: ['sub_1', 'sub_2'],
      accountKeys: ['user_a', 'user_b'],
      newer: { accountKey: 'user_b', subscriptionUid: 'sub_2' },
      policy: 'report',
    });
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ code: 'line_pays_twice' });
    expect(warn.mock.calls.some(([, message]) => String(message).includes('line sbr_1'))).toBe(true);
    expect(subscriptions.cancel).not.toHaveBeenCalled();
    expect(hasAccess(await store.get('user_a', 'prod_premium'), NOW)).toBe(true);
    expect(hasAccess(await store.get('user_b', 'prod_premium'), NOW)).toBe(true);
    expect((await kit.explainLine('sbr_1')).paysTwice).toHaveLength(1);
  });

  it('cancel-newer: the newer subscription is cancelled at period end once, both keep access until then', async () => {
    const { kit, store, subscriptions, linePaysTwice } = kitWith('cancel-newer');
    await kit.webhook(bought('user_a', 'sub_1', 'pay_1'));
    await kit.webhook(bought('user_b', 'sub_2', 'pay_2'));
    expect(subscriptions.cancel.mock.calls).toEqual([['sub_2', { when: 'PERIOD_END' }]]);
    expect(await store.get('user_b', 'prod_premium')).toMatchObject({
      status: 'PRE_CANCELED',
      cancelAt: CANCEL_AT,
    });
    expect(await store.get('user_a', 'prod_premium')).toMatchObject({ status: 'ACTIVE' });
    expect(linePaysTwice.mock.calls[0]?.[0]).toMatchObject({
      policy: 'cancel-newer',
      canceled: { status: 'PRE_CANCELED' },
    });
    expect(hasAccess(await store.get('user_b', 'prod_premium'), NOW)).toBe(true);
    // Until the newer one ends the line still holds both: explainLine says so.
    expect((await kit.explainLine('sbr_1')).paysTwice).toEqual([
      { productUid: 'prod_premium', subscriptionUids: ['sub_1', 'sub_2'], accountKeys: ['user_a', 'user_b'] },
    ]);
    // The older one's next payment: the line no longer pays twice at renewals, nothing more is done.
    await kit.webhook(bought('user_a', 'sub_1', 'pay_3', 5));
    expect(subscriptions.cancel).toHaveBeenCalledOnce();
    expect(linePaysTwice).toHaveBeenCalledOnce();
  });

  it('cancel-newer: a cancel that fails answers 503 with the event recorded, and the retry cancels', async () => {
    let fail = true;
    const { kit, store, subscriptions } = kitWith('cancel-newer', async (uid) => {
      if (fail) throw new DcbError('timeout', 'the service did not answer');
      return subscription(uid, { status: 'PRE_CANCELED', cancelAt: CANCEL_AT });
    });
    await kit.webhook(bought('user_a', 'sub_1', 'pay_1'));
    const first = await kit.webhook(bought('user_b', 'sub_2', 'pay_2'));
    expect(first.status).toBe(503);
    expect(JSON.parse(String(first.body))).toMatchObject({ error: 'line_cancel_failed' });
    expect(await store.get('user_b', 'prod_premium')).toMatchObject({
      status: 'ACTIVE',
      subscriptionUid: 'sub_2',
    });
    fail = false;
    expect((await kit.webhook(bought('user_b', 'sub_2', 'pay_2'))).status).toBe(200);
    expect(subscriptions.cancel).toHaveBeenCalledTimes(2);
    expect(await store.get('user_b', 'prod_premium')).toMatchObject({ status: 'PRE_CANCELED' });
  });

  it('cancel-newer: a cancel whose event the service stopped retrying is made by the next reconcile run', async () => {
    let fail = true;
    const { kit, store, subscriptions } = kitWith('cancel-newer', async (uid) => {
      if (fail) throw new DcbError('timeout', 'the service did not answer');
      return subscription(uid, { status: 'PRE_CANCELED', cancelAt: CANCEL_AT });
    });
    await kit.webhook(bought('user_a', 'sub_1', 'pay_1'));
    expect((await kit.webhook(bought('user_b', 'sub_2', 'pay_2'))).status).toBe(503);
    // A dry run and an account's run cancel nothing; a failing cancel is left to the next run.
    await kit.reconcile({ dryRun: true });
    await kit.reconcile({ accountKey: 'user_b' });
    await kit.reconcile();
    expect(subscriptions.cancel).toHaveBeenCalledTimes(2);
    expect(await store.get('user_b', 'prod_premium')).toMatchObject({ status: 'ACTIVE' });
    fail = false;
    await kit.reconcile();
    expect(subscriptions.cancel.mock.calls.at(-1)).toEqual(['sub_2', { when: 'PERIOD_END' }]);
    expect(await store.get('user_b', 'prod_premium')).toMatchObject({ status: 'PRE_CANCELED' });
    expect(await store.get('user_a', 'prod_premium')).toMatchObject({ status: 'ACTIVE' });
    // Cancelled: the line no longer renews twice, the next run cancels nothing more.
    await kit.reconcile();
    expect(subscriptions.cancel).toHaveBeenCalledTimes(3);
  });

  it('cancel-newer: a cancel refused because another instance cancelled first is read and taken', async () => {
    const { kit, store, subscriptions } = kitWith('cancel-newer', async () => {
      throw new DcbError('timeout', 'conflict');
    });
    subscriptions.retrieve.mockImplementation(async (uid) =>
      subscription(uid, { status: 'PRE_CANCELED', cancelAt: CANCEL_AT }),
    );
    await kit.webhook(bought('user_a', 'sub_1', 'pay_1'));
    expect((await kit.webhook(bought('user_b', 'sub_2', 'pay_2'))).status).toBe(200);
    expect(await store.get('user_b', 'prod_premium')).toMatchObject({ status: 'PRE_CANCELED' });
  });

  it('one account buying again on its own line, or two lines, is not paying twice', async () => {
    const { kit, linePaysTwice } = kitWith('cancel-newer');
    await kit.webhook(bought('user_a', 'sub_1', 'pay_1'));
    await kit.webhook(bought('user_a', 'sub_1', 'pay_2', 5));
    await kit.webhook(
      signedRequest(
        paymentEvent('payment.succeeded', 0, 'off_monthly', {
          subscriptionUid: 'sub_9',
          paymentUid: 'pay_9',
          subscriberUid: 'sbr_2',
          metadata: { accountKey: 'user_b' },
        }),
        new Date(),
      ),
    );
    expect(linePaysTwice).not.toHaveBeenCalled();
  });

  it('is not seen with a store that cannot answer by line: the kit works as before', async () => {
    const { memoryEntitlements } = await import('../store/memory-entitlements.js');
    const { store } = memoryEntitlements();
    const { listBySubscriberUid: _, ...withoutLines } = store;
    const cancel = vi.fn();
    const linePaysTwice = vi.fn();
    const client = {
      payments: {},
      subscriptions: { cancel, retrieve: vi.fn() },
      checkConnection: async () => {},
    };
    const kit = createDcbKit({
      client: client as unknown as DcbClient,
      webhookSecrets: SECRET,
      offers,
      store: withoutLines as typeof store,
      logger: {},
      now: () => NOW,
      linePolicy: 'cancel-newer',
      on: { linePaysTwice },
    });
    expect((await kit.webhook(bought('user_a', 'sub_1', 'pay_1'))).status).toBe(200);
    expect((await kit.webhook(bought('user_b', 'sub_2', 'pay_2'))).status).toBe(200);
    expect(linePaysTwice).not.toHaveBeenCalled();
    expect(cancel).not.toHaveBeenCalled();
  });

  it("refuses linePolicy 'cancel-newer' without the API's subscriptions, and an unknown policy", async () => {
    const { createWebhookHandler } = await import('./create-webhook-handler.js');
    const { memoryLedger } = await import('../ledger/memory-ledger.js');
    const base = { secrets: SECRET, store: memoryStore(), ledger: memoryLedger(), offers };
    expect(() => createWebhookHandler({ ...base, linePolicy: 'cancel-newer' })).toThrow(/subscriptions/);
    expect(() => createWebhookHandler({ ...base, linePolicy: 'never' as LinePolicy })).toThrow(/linePolicy/);
  });
});
