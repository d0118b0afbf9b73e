import { describe, expect, it } from 'vitest';
import type { ClaimToken } from '../ledger/event-ledger.js';
import { memoryLedger } from '../ledger/memory-ledger.js';
import { memoryStore } from '../store/memory-store.js';
import type { ApplyOnceOptions, OnceResult, OnceStore, OnceWork } from '../store/once-store.js';
import { NOW, offers, paymentEvent, SECRET, signedRequest } from '../test-support/fixtures.js';
import { useTestMeter } from '../test-support/otel-meter.js';
import { createWebhookHandler } from './create-webhook-handler.js';

const exported = useTestMeter();
/** The data points of the counters whose name starts with `prefix`, as `name value`. */
const counted = async (prefix: string) =>
  (await exported()).filter((point) => point.startsWith(prefix)).map((point) => point.replace(/\{.*\}/, ''));

type Store = ReturnType<typeof memoryStore>;

/** applyOnce whose first commit fails after the work ran (the database went away): nothing stays. */
function failingFirstCommit(): Store & OnceStore<Store> {
  const inner = memoryStore();
  const processed = new Set<string>();
  let commits = 0;
  return {
    ...inner,
    onceLedger: memoryLedger(),
    async applyOnce<T>(
      key: string,
      work: (tx: Store) => Promise<OnceWork<T>>,
      _options: ApplyOnceOptions,
    ): Promise<OnceResult<T>> {
      if (processed.has(key)) return { status: 'duplicate' };
      const done = await work(inner);
      if (commits++ === 0) throw new Error('connection lost at the commit');
      processed.add(key);
      const counted = await inner.recordMetrics(done.facts ?? []);
      return { status: 'applied', value: done.value, token: 't' as ClaimToken, counted };
    },
    async reopen() {},
  };
}

describe('the one-transaction path and the OpenTelemetry counters', () => {
  it('counts the payment and its facts once, after the commit, when a first attempt failed', async () => {
    const store = failingFirstCommit();
    const handler = createWebhookHandler({
      secrets: SECRET,
      store,
      ledger: store.onceLedger,
      offers,
      logger: { warn() {}, error() {} },
      now: () => NOW,
    });
    const purchase = paymentEvent('payment.succeeded', 0, 'off_credits', {
      orderId: 'ord_1',
      metadata: { accountKey: 'user_1' },
    });
    expect((await handler(signedRequest(purchase))).status).toBe(500);
    expect((await handler(signedRequest(purchase))).status).toBe(200);
    expect(await counted('dcbkit.payments')).toEqual(['dcbkit.payments 1']);
    expect(await counted('dcbkit.units')).toEqual(['dcbkit.units 1']);
  });
});

describe('the two-phase ledger path and the OpenTelemetry counters', () => {
  it('counts the payment once, when its claim is completed, though a first attempt failed in a listener', async () => {
    // The meter is the file's: count what this test adds.
    const payments = async () => Number((await counted('dcbkit.payments'))[0]?.split(' ')[1] ?? 0);
    const before = await payments();
    let calls = 0;
    const handler = createWebhookHandler({
      secrets: SECRET,
      store: memoryStore(),
      ledger: memoryLedger(),
      offers,
      logger: { warn() {}, error() {} },
      now: () => NOW,
      on: {
        'payment.succeeded': () => {
          if (calls++ === 0) throw new Error('the mail server is down');
        },
      },
    });
    const purchase = paymentEvent('payment.succeeded', 0, 'off_credits', {
      orderId: 'ord_2',
      metadata: { accountKey: 'user_2' },
    });
    expect((await handler(signedRequest(purchase))).status).toBe(500);
    expect((await handler(signedRequest(purchase))).status).toBe(200);
    expect(calls).toBe(2);
    expect((await payments()) - before).toBe(1);
  });
});
