import { describe, expect, it, vi } from 'vitest';
import { eventKey } from '../ledger/event-key.js';
import type { EventLedger } from '../ledger/event-ledger.js';
import { memoryLedger } from '../ledger/memory-ledger.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { memoryStore } from '../store/memory-store.js';
import {
  at,
  event,
  NOW,
  offer,
  offers,
  paymentEvent,
  SECRET,
  signedRequest,
} from '../test-support/fixtures.js';
import { type CreateWebhookHandlerOptions, createWebhookHandler } from './create-webhook-handler.js';
import { signWebhook } from './sign-webhook.js';

/** A memory store that counts writes and can be told to fail the next ones. */
function watchedStore() {
  const inner = memoryStore();
  const watch = { updates: 0, failNext: 0 };
  const store: EntitlementStore = {
    ...inner,
    async update(accountKey, productUid, change) {
      watch.updates++;
      if (watch.failNext > 0) {
        watch.failNext--;
        throw new Error('connection reset by peer');
      }
      return inner.update(accountKey, productUid, change);
    },
  };
  return { store, watch };
}

function setup(overrides: Partial<CreateWebhookHandlerOptions> = {}) {
  const { store, watch } = watchedStore();
  const ledger = memoryLedger();
  const logger = { warn: vi.fn(), error: vi.fn() };
  const on = {
    'payment.succeeded': vi.fn(),
    'subscription.updated': vi.fn(),
    accessGranted: vi.fn(),
    accessRevoked: vi.fn(),
    unknownOffer: vi.fn(),
  };
  const handler = createWebhookHandler({
    secrets: SECRET,
    store,
    ledger,
    offers,
    on,
    logger,
    now: () => NOW,
    ...overrides,
  });
  return { handler, store, watch, ledger, logger, on };
}

const purchase = (fields: Partial<WebhookEvent> = {}) =>
  paymentEvent('payment.succeeded', 0, 'off_monthly', { subscriptionUid: 'sub_1', ...fields });
const body = (response: { body: string | undefined }) =>
  JSON.parse(response.body ?? '') as Record<string, unknown>;

describe('createWebhookHandler: 200', () => {
  it('applies an event: commits the entitlement, runs the listeners, answers applied', async () => {
    const { handler, store, on } = setup();
    const response = await handler(signedRequest(purchase()));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(body(response)).toEqual({ received: true, outcome: 'applied' });
    const entitlement = await store.get('user_1', 'prod_premium');
    expect(entitlement).toMatchObject({ status: 'ACTIVE', subscriptionUid: 'sub_1' });
    expect(on['payment.succeeded']).toHaveBeenCalledOnce();
    expect(on['payment.succeeded']).toHaveBeenCalledWith(
      expect.objectContaining({ accountKey: 'user_1', previous: undefined, entitlement }),
    );
    expect(on.accessGranted).toHaveBeenCalledWith(
      expect.objectContaining({ accountKey: 'user_1', productUid: 'prod_premium', source: 'webhook' }),
    );
  });

  it('answers duplicate for a redelivery, even signed at another time, and does nothing again', async () => {
    const { handler, watch, on } = setup();
    await handler(signedRequest(purchase()));
    const again = await handler(signedRequest(purchase(), new Date(NOW.getTime() - 60_000)));
    expect(again.status).toBe(200);
    expect(body(again)).toEqual({ received: true, outcome: 'duplicate' });
    expect(watch.updates).toBe(1);
    expect(on['payment.succeeded']).toHaveBeenCalledOnce();
  });

  it('answers 200 to an event name it does not know, with no effect', async () => {
    const { handler, store, watch } = setup();
    const response = await handler(
      signedRequest(event('invoice.created', 0, { metadata: { accountKey: 'user_1' } })),
    );
    expect(response.status).toBe(200);
    expect(body(response)).toEqual({ received: true, outcome: 'ignored' });
    expect(watch.updates).toBe(0);
    expect(await store.listByAccount('user_1')).toEqual([]);
  });

  it('answers 503 to a revocation that names its account but no offer before its payment, then applies it after (issue 25, item 6)', async () => {
    const { handler, store } = setup();
    const early = event('subscription.canceled', 5, {
      subscriptionUid: 'sub_1',
      productUid: 'prod_premium',
      metadata: { accountKey: 'user_1' },
      subscriptionStatus: 'CANCELED',
    });
    const first = await handler(signedRequest(early));
    expect(first.status).toBe(503);
    expect(body(first)).toMatchObject({ error: 'entitlement_not_found' });
    expect(await store.listByAccount('user_1')).toEqual([]);
    expect((await handler(signedRequest(purchase()))).status).toBe(200);
    expect((await handler(signedRequest(early))).status).toBe(200);
    // In order, the purchase then the cancellation: the same end as in-order delivery.
    expect(await store.get('user_1', 'prod_premium')).toMatchObject({ status: 'REVOKED' });
  });

  it('answers 200 to an unknown offer, writes nothing, logs it, and processes a replay once the offer is added', async () => {
    const { handler, store, ledger, logger, on } = setup();
    const stray = paymentEvent('payment.succeeded', 0, 'off_monthly', {
      offerUid: 'off_new',
      productUid: 'prod_new',
    });
    const response = await handler(signedRequest(stray));
    expect(response.status).toBe(200);
    expect(body(response)).toEqual({ received: true, outcome: 'unknown_offer' });
    expect(await store.listByAccount('user_1')).toEqual([]);
    expect(logger.warn).toHaveBeenCalledWith(expect.anything(), expect.stringContaining('off_new'));
    expect(on.unknownOffer).toHaveBeenCalledWith({
      event: expect.objectContaining({ offerUid: 'off_new' }),
      offerUid: 'off_new',
    });

    const fixed = createWebhookHandler({
      secrets: SECRET,
      store,
      ledger,
      offers: [...offers.list, { ...offer('off_monthly'), offerUid: 'off_new', productUid: 'prod_new' }],
      now: () => NOW,
    });
    expect(body(await fixed(signedRequest(stray)))).toEqual({ received: true, outcome: 'applied' });
    expect((await store.get('user_1', 'prod_new'))?.status).toBe('ACTIVE');
  });

  it('runs the listeners of events that change no access', async () => {
    const onFailed = vi.fn();
    const { handler, watch } = setup({ on: { 'payment.failed': onFailed } });
    const response = await handler(signedRequest(paymentEvent('payment.failed', 0, 'off_monthly')));
    expect(body(response)).toEqual({ received: true, outcome: 'applied' });
    expect(onFailed).toHaveBeenCalledWith(
      expect.objectContaining({ accountKey: 'user_1', entitlement: undefined }),
    );
    expect(watch.updates).toBe(0);
  });
});

describe('createWebhookHandler: refusals write nothing', () => {
  it.each([
    ['no signature header', () => ({ ...signedRequest(purchase()), headers: {} }), 'header_missing'],
    [
      'a signature by another secret',
      () => signedRequest(purchase(), NOW, 'whsec_other_secret'),
      'signature_mismatch',
    ],
    [
      'a signature ten minutes old',
      () => signedRequest(purchase(), new Date(NOW.getTime() - 600_000)),
      'timestamp_out_of_tolerance',
    ],
    [
      'a tampered body',
      () => {
        const request = signedRequest(purchase());
        return { ...request, rawBody: Buffer.from(request.rawBody.toString().replace('user_1', 'user_2')) };
      },
      'signature_mismatch',
    ],
  ])('401 for %s', async (_case, request, reason) => {
    const { handler, watch, ledger } = setup();
    const response = await handler(request());
    expect(response.status).toBe(401);
    expect(body(response)).toEqual({ received: false, error: reason });
    expect(response.body).not.toContain(SECRET);
    expect(watch.updates).toBe(0);
    expect((await ledger.claim(eventKey(purchase()))).status).toBe('new');
  });

  it.each([
    ['a body that is not JSON', 'not json at all', 'body_not_json'],
    ['JSON that is not an event', '{"hello":"world"}', 'event_invalid'],
  ])('400 for %s, signed', async (_case, text, reason) => {
    const { handler, watch } = setup();
    const rawBody = Buffer.from(text);
    const signature = signWebhook({ payload: rawBody, secret: SECRET, timestamp: NOW });
    const response = await handler({ rawBody, headers: { 'service-signature': signature } });
    expect(response.status).toBe(400);
    expect(body(response)).toEqual({ received: false, error: reason });
    expect(watch.updates).toBe(0);
  });

  it('413 above maxBodyBytes, before any verification', async () => {
    const { handler, watch } = setup({ maxBodyBytes: 256 });
    const request = signedRequest(purchase({ metadata: { accountKey: 'user_1', note: 'x'.repeat(300) } }));
    const response = await handler(request);
    expect(response.status).toBe(413);
    expect(body(response)).toEqual({ received: false, error: 'body_too_large' });
    expect(watch.updates).toBe(0);
  });

  it('413 above the default 1 MiB, counted in bytes', async () => {
    const { handler } = setup();
    expect((await handler({ rawBody: 'é'.repeat(512 * 1024 + 1), headers: {} })).status).toBe(413);
    expect((await handler({ rawBody: 'é'.repeat(512 * 1024), headers: {} })).status).toBe(401);
  });

  it('finds the signature header whatever its case', async () => {
    const { handler } = setup();
    const { rawBody, headers } = signedRequest(purchase());
    const response = await handler({
      rawBody,
      headers: { 'Service-Signature': headers['service-signature'] },
    });
    expect(response.status).toBe(200);
  });
});

describe('createWebhookHandler: 409 while the same event is processed elsewhere', () => {
  it('answers 409 with Retry-After, then duplicate once the first delivery completed', async () => {
    let unblock = () => {};
    const blocked = new Promise<void>((resolve) => {
      unblock = resolve;
    });
    const { handler, watch } = setup({ on: { 'payment.succeeded': () => blocked } });
    const first = handler(signedRequest(purchase()));
    await vi.waitFor(() => expect(watch.updates).toBe(1));
    const second = await handler(signedRequest(purchase()));
    expect(second.status).toBe(409);
    expect(second.headers['retry-after']).toBe('5');
    expect(body(second)).toEqual({ received: false, error: 'in_progress' });
    unblock();
    expect((await first).status).toBe(200);
    expect(body(await handler(signedRequest(purchase())))).toEqual({ received: true, outcome: 'duplicate' });
    expect(watch.updates).toBe(1);
  });
});

describe('createWebhookHandler: 500 releases the claim so the retry is processed', () => {
  it('when the store fails: nothing committed, no listener run, the retry applies', async () => {
    const { handler, store, watch, on, logger } = setup();
    watch.failNext = 1;
    const failed = await handler(signedRequest(purchase()));
    expect(failed.status).toBe(500);
    expect(body(failed)).toEqual({ received: false, error: 'processing_failed' });
    expect(failed.body).not.toMatch(/connection reset|at .*\.ts/);
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({
        err: expect.objectContaining({ message: expect.stringContaining('connection reset') }),
      }),
      expect.any(String),
    );
    expect(await store.get('user_1', 'prod_premium')).toBeUndefined();
    expect(on['payment.succeeded']).not.toHaveBeenCalled();

    const retry = await handler(signedRequest(purchase()));
    expect(body(retry)).toEqual({ received: true, outcome: 'applied' });
    expect((await store.get('user_1', 'prod_premium'))?.status).toBe('ACTIVE');
  });

  it('when a listener throws: the retry runs the listeners again (at least once) and changes nothing else', async () => {
    const accessGranted = vi
      .fn()
      .mockRejectedValueOnce(new Error('mailer down'))
      .mockResolvedValue(undefined);
    const { handler, store } = setup({ on: { accessGranted } });
    expect((await handler(signedRequest(purchase()))).status).toBe(500);
    const afterFailure = await store.get('user_1', 'prod_premium');
    expect((await handler(signedRequest(purchase()))).status).toBe(200);
    expect(accessGranted).toHaveBeenCalledTimes(2);
    expect(await store.get('user_1', 'prod_premium')).toEqual(afterFailure);
  });

  it('when the ledger fails to claim', async () => {
    const ledger: EventLedger = {
      claim: () => Promise.reject(new Error('ledger unreachable')),
      complete: () => Promise.resolve(),
      release: () => Promise.resolve(),
    };
    const { handler, watch } = setup({ ledger });
    expect((await handler(signedRequest(purchase()))).status).toBe(500);
    expect(watch.updates).toBe(0);
  });

  it('when the body was parsed instead of handed over raw, with a log line saying how to fix it', async () => {
    const { handler, logger } = setup();
    const { headers } = signedRequest(purchase());
    const response = await handler({ rawBody: purchase() as unknown as Buffer, headers });
    expect(response.status).toBe(500);
    expect(body(response)).toEqual({ received: false, error: 'body_not_raw' });
    expect(logger.error).toHaveBeenCalledWith(expect.anything(), expect.stringContaining('express.raw'));
  });
});

describe('createWebhookHandler: events after the payment', () => {
  it('finds the entitlement of an event without metadata by its subscription, and reports access ending', async () => {
    const { handler, store, on } = setup();
    await handler(signedRequest(purchase()));
    const cancelAt = at(30 * 1440);
    await handler(signedRequest(event('subscription.updated', 10, { subscriptionUid: 'sub_1', cancelAt })));
    expect(await store.get('user_1', 'prod_premium')).toMatchObject({ status: 'PRE_CANCELED', cancelAt });
    expect(on['subscription.updated']).toHaveBeenCalledWith(
      expect.objectContaining({ accountKey: 'user_1' }),
    );
    await handler(signedRequest(event('entitlement.revoked', 20, { subscriptionUid: 'sub_1' })));
    expect((await store.get('user_1', 'prod_premium'))?.status).toBe('REVOKED');
    expect(on.accessRevoked).toHaveBeenCalledWith(
      expect.objectContaining({ accountKey: 'user_1', productUid: 'prod_premium' }),
    );
  });

  it('503 with Retry-After for an event that overtook its payment; the retry applies it', async () => {
    const { handler, store, watch } = setup();
    const overtaking = event('subscription.updated', 10, {
      subscriptionUid: 'sub_1',
      cancelAt: at(30 * 1440),
    });
    const early = await handler(signedRequest(overtaking));
    expect(early.status).toBe(503);
    expect(early.headers['retry-after']).toBe('60');
    expect(body(early)).toEqual({ received: false, error: 'entitlement_not_found' });
    expect(watch.updates).toBe(0);
    await handler(signedRequest(purchase()));
    expect(body(await handler(signedRequest(overtaking)))).toEqual({ received: true, outcome: 'applied' });
    expect((await store.get('user_1', 'prod_premium'))?.status).toBe('PRE_CANCELED');
  });
});

describe('createWebhookHandler: pending payments', () => {
  it.each(['payment.succeeded', 'payment.failed'] as const)(
    'settles the pending payment once %s says how it ended: kept with that ending, no longer read',
    async (name) => {
      const store = memoryStore();
      const handler = createWebhookHandler({
        secrets: SECRET,
        store,
        ledger: memoryLedger(),
        offers,
        now: () => NOW,
      });
      await store.recordPendingPayment({
        paymentUid: 'pay_1',
        accountKey: 'user_1',
        productUid: 'prod_credits',
        offerUid: 'off_credits',
        recordedAt: NOW.toISOString(),
        checkoutUrl: 'https://checkout.example/c/pay_1',
      });
      await store.recordPendingPayment({
        paymentUid: 'pay_other',
        accountKey: 'user_1',
        productUid: 'prod_premium',
        offerUid: 'off_monthly',
        recordedAt: NOW.toISOString(),
      });
      const answer = await handler(
        signedRequest(paymentEvent(name, 0, 'off_credits', { orderId: 'ord_1', subscriberUid: 'sbr_line' })),
      );
      expect(answer.status).toBe(200);
      expect((await store.listPendingPayments({ limit: 10 })).map((payment) => payment.paymentUid)).toEqual([
        'pay_other',
      ]);
      const kept = (await store.listPendingPaymentsOfAccount('user_1')).map((payment) => [
        payment.paymentUid,
        payment.ended,
      ]);
      expect(kept).toEqual([
        [
          'pay_1',
          {
            status: name === 'payment.succeeded' ? 'SUCCEEDED' : 'FAILED',
            at: NOW.toISOString(),
            // The line that consented, as the event names it: a line's complaint record finds it.
            subscriberUid: 'sbr_line',
          },
        ],
        ['pay_other', undefined],
      ]);
    },
  );
});

describe('createWebhookHandler: options', () => {
  it('takes the account from another metadata field, falling back to the subscriber', async () => {
    const { handler, store } = setup({ accountKeyField: 'userId' });
    await handler(signedRequest(purchase({ metadata: { userId: 'u-77' } })));
    await handler(
      signedRequest(
        purchase({ paymentUid: 'pay_2', productUid: 'prod_unlock', offerUid: 'off_unlock', metadata: {} }),
      ),
    );
    expect((await store.get('u-77', 'prod_premium'))?.status).toBe('ACTIVE');
    expect((await store.get('sbr_1', 'prod_unlock'))?.status).toBe('ACTIVE');
  });

  it('takes the account from a function', async () => {
    const { handler, store } = setup({ accountKeyOfEvent: (e) => `tenant-${String(e.metadata?.tenant)}` });
    await handler(signedRequest(purchase({ metadata: { tenant: 9 } })));
    expect(await store.listByAccount('tenant-9')).toHaveLength(1);
  });

  it('uses the eventKey option to tell events apart', async () => {
    const { handler } = setup({ eventKey: (e) => e.paymentUid ?? e.event });
    await handler(signedRequest(purchase()));
    const later = paymentEvent('payment.succeeded', 5, 'off_monthly', { subscriptionUid: 'sub_1' });
    expect(body(await handler(signedRequest(later)))).toEqual({ received: true, outcome: 'duplicate' });
  });

  it('refuses options it cannot work with', () => {
    const { store } = watchedStore();
    const ledger = memoryLedger();
    expect(() => createWebhookHandler({ secrets: '', store, ledger, offers })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    expect(() => createWebhookHandler({ secrets: SECRET, store, ledger, offers, maxBodyBytes: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    expect(() =>
      createWebhookHandler({ secrets: [SECRET], store, ledger, offers: [{ offerUid: 'x' }] as never }),
    ).toThrow(/not a valid offer/);
  });
});
