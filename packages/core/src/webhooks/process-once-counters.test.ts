import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimToken } from '../ledger/event-ledger.js';
import { memoryLedger } from '../ledger/memory-ledger.js';
import { memoryStore } from '../store/memory-store.js';
import type { ApplyOnceOptions, OnceResult, OnceStore, OnceWork } from '../store/once-store.js';
import { NOW, offers, paymentEvent, SECRET, signedRequest } from '../test-support/fixtures.js';
import { createWebhookHandler } from './create-webhook-handler.js';

const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
beforeAll(() => {
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});
afterAll(() => metrics.disable());

async function exported(prefix: string): Promise<string[]> {
  await reader.forceFlush();
  const last = exporter.getMetrics().at(-1);
  return (last?.scopeMetrics ?? []).flatMap((scope) =>
    scope.metrics
      .filter((metric) => metric.descriptor.name.startsWith(prefix))
      .flatMap((metric) =>
        metric.dataPoints.map((point) => `${metric.descriptor.name} ${String(point.value)}`),
      ),
  );
}

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
    expect(await exported('dcbkit.payments')).toEqual(['dcbkit.payments 1']);
    expect(await exported('dcbkit.units')).toEqual(['dcbkit.units 1']);
  });
});
