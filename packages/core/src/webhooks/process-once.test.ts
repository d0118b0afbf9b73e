import { describe, expect, it, vi } from 'vitest';
import type { ClaimToken } from '../ledger/event-ledger.js';
import { memoryLedger } from '../ledger/memory-ledger.js';
import type { MetricEntry } from '../metrics/metric-entry.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { memoryStore } from '../store/memory-store.js';
import type { ApplyOnceOptions, OnceResult, OnceStore, OnceWork } from '../store/once-store.js';
import { NOW, offers, paymentEvent, SECRET, signedRequest } from '../test-support/fixtures.js';
import { createWebhookHandler } from './create-webhook-handler.js';

type Store = ReturnType<typeof memoryStore>;

/**
 * The handler's side of the one-transaction path, on a memory double of applyOnce: what it hands
 * the store and what it does with each answer. (store-postgres proves the transaction itself.)
 */
function onceDouble() {
  const inner = memoryStore();
  const processed = new Map<string, ClaimToken>();
  const calls = {
    applyOnce: [] as { key: string; options: ApplyOnceOptions }[],
    reopen: [] as string[],
    facts: [] as MetricEntry[],
  };
  let next = 0;
  let busy = false;
  const store: Store & OnceStore<Store> = {
    ...inner,
    onceLedger: memoryLedger(),
    async applyOnce<T>(
      key: string,
      work: (tx: Store) => Promise<OnceWork<T>>,
      options: ApplyOnceOptions,
    ): Promise<OnceResult<T>> {
      calls.applyOnce.push({ key, options });
      if (busy) return { status: 'in_progress' };
      if (processed.has(key)) return { status: 'duplicate' };
      // The facts come with the work's answer, not through the transaction.
      const done = await work({
        ...inner,
        recordMetrics: () => Promise.reject(new Error('not in the transaction')),
      });
      if (!done.keep) return { status: 'rolled_back', value: done.value };
      const token = `t${next++}`;
      processed.set(key, token);
      calls.facts.push(...(done.facts ?? []));
      const counted = await inner.recordMetrics(done.facts ?? []);
      return { status: 'applied', value: done.value, token, counted };
    },
    async reopen(key, token) {
      calls.reopen.push(key);
      if (processed.get(key) === token) processed.delete(key);
    },
  };
  return { store, calls, hold: (held: boolean) => (busy = held) };
}

function setup(on: Parameters<typeof createWebhookHandler>[0]['on'] = {}) {
  const double = onceDouble();
  const handler = createWebhookHandler({
    secrets: SECRET,
    store: double.store,
    ledger: double.store.onceLedger,
    offers,
    on,
    logger: { warn() {}, error() {} },
    now: () => NOW,
  });
  return { ...double, handler };
}

const purchase = paymentEvent('payment.succeeded', 0, 'off_monthly', {
  subscriptionUid: 'sub_1',
  metadata: { accountKey: 'user_1' },
});

describe('the one-transaction path', () => {
  it('is taken when the store has applyOnce and the handler its ledger: applied, then a duplicate', async () => {
    const { handler, calls, store } = setup();
    expect((await handler(signedRequest(purchase))).body).toContain('"applied"');
    expect((await handler(signedRequest(purchase))).body).toContain('"duplicate"');
    expect(calls.applyOnce).toHaveLength(2);
    // The copy's history entry is handed to the store, which writes it with the claim.
    expect(calls.applyOnce[1]?.options.duplicate).toMatchObject({
      eventName: 'payment.succeeded',
      eventKey: calls.applyOnce[1]?.key,
      paymentUid: purchase.paymentUid,
    });
    expect(await store.get('user_1', 'prod_premium')).toMatchObject({ status: 'ACTIVE' });
    // A subscription's payment: its line's events are applied one after the other (line check).
    expect(calls.applyOnce[0]?.options.line).toBe(purchase.subscriberUid);
  });

  it("hands the event's facts to applyOnce with its work, to be written with the commit", async () => {
    const { handler, calls, store } = setup();
    await handler(signedRequest(purchase));
    await handler(signedRequest(purchase));
    expect(calls.facts.map((fact) => fact.kind)).toEqual(['new_subscription']);
    const { days } = await store.readMetricDays({ from: '2000-01-01', to: '2100-01-01' });
    expect(days.map((day) => [day.kind, day.count])).toEqual([['new_subscription', 1]]);
  });

  it('is not taken with another ledger: the two-phase path', async () => {
    const { store, calls } = onceDouble();
    const handler = createWebhookHandler({
      secrets: SECRET,
      store,
      ledger: memoryLedger(),
      offers,
      now: () => NOW,
    });
    expect((await handler(signedRequest(purchase))).status).toBe(200);
    expect(calls.applyOnce).toEqual([]);
  });

  it('answers 409 while another delivery holds the key', async () => {
    const { handler, hold } = setup();
    hold(true);
    const answer = await handler(signedRequest(purchase));
    expect(answer.status).toBe(409);
    expect(answer.headers?.['retry-after']).toBeDefined();
  });

  it('runs the listeners after the commit; one that throws reopens the key, so the retry runs them again', async () => {
    const granted = vi.fn().mockRejectedValueOnce(new Error('mail server down'));
    const onPayment = vi.fn();
    const { handler, calls } = setup({ accessGranted: granted, 'payment.succeeded': onPayment });
    expect((await handler(signedRequest(purchase))).status).toBe(500);
    expect(calls.reopen).toHaveLength(1);
    expect((await handler(signedRequest(purchase))).body).toContain('"applied"');
    expect(onPayment).toHaveBeenCalledTimes(2);
  });

  it('keeps nothing of an event for an unknown offer, and still tells its listener', async () => {
    const unknownOffer = vi.fn();
    const { handler, store } = setup({ unknownOffer });
    const stray = paymentEvent('payment.succeeded', 0, 'off_monthly', {
      offerUid: 'off_missing',
      metadata: { accountKey: 'user_2' },
    });
    expect((await handler(signedRequest(stray))).body).toContain('"unknown_offer"');
    expect(unknownOffer).toHaveBeenCalledTimes(1);
    // Rolled back, so a replay after the offer is added is processed.
    expect((await handler(signedRequest(stray))).body).toContain('"unknown_offer"');
    expect(await (store as EntitlementStore).get('user_2', 'prod_premium')).toBeUndefined();
  });
});
