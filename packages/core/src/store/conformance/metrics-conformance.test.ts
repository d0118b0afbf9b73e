import { describe, expect, it } from 'vitest';
import type { MetricEntry } from '../../metrics/metric-entry.js';
import { memoryMetrics } from '../memory-metrics.js';
import { memoryStore } from '../memory-store.js';
import type { MetricsStore } from '../metrics-store.js';
import { metricsChecks, runMetricsConformance } from './metrics-conformance.js';

runMetricsConformance(() => memoryStore(), { name: 'memoryStore', describe, it });

// The suite is only worth running if it catches broken stores: these are broken on purpose.

const nextTick = () => new Promise((resolve) => setImmediate(resolve));

function check(name: string) {
  const found = metricsChecks.find((one) => one.name.includes(name));
  if (!found) throw new Error(`no metrics check named like "${name}"`);
  return found;
}

/** Remembers keys per call only: a redelivery in a later call counts again. */
function forgetfulStore(): MetricsStore {
  const inner = memoryMetrics();
  return {
    ...inner,
    recordMetrics: (entries) =>
      inner.recordMetrics(entries.map((entry) => ({ ...entry, key: `${entry.key}:${Math.random()}` }))),
  };
}

/** Checks the key, yields, then writes: calls at the same moment all count. */
function racyStore(): MetricsStore {
  const inner = memoryMetrics();
  const seen = new Set<string>();
  return {
    ...inner,
    async recordMetrics(entries) {
      const fresh = entries.filter((entry) => !seen.has(entry.key));
      await nextTick();
      for (const entry of fresh) seen.add(entry.key);
      await inner.recordMetrics(fresh.map((entry) => ({ ...entry, key: `${entry.key}:${Math.random()}` })));
      return fresh;
    },
  };
}

/** Buckets by the machine's local day east of UTC: a late evening fact lands on the next day. */
function localDayStore(): MetricsStore {
  const inner = memoryMetrics();
  const shift = (entry: MetricEntry) => ({
    ...entry,
    occurredAt: new Date(Date.parse(entry.occurredAt) + 3 * 3_600_000).toISOString(),
  });
  return { ...inner, recordMetrics: (entries) => inner.recordMetrics(entries.map(shift)) };
}

/** Keeps counts but drops the live change and the money. */
function thinStore(): MetricsStore {
  const inner = memoryMetrics();
  return {
    ...inner,
    recordMetrics: (entries) =>
      inner.recordMetrics(entries.map((entry) => ({ ...entry, amount: 0, live: 0 }))),
  };
}

/** Answers the day `to` names too. */
function inclusiveStore(): MetricsStore {
  const inner = memoryMetrics();
  return {
    ...inner,
    readMetricDays: ({ from, to }) =>
      inner.readMetricDays({ from, to: new Date(Date.parse(to) + 86_400_000).toISOString().slice(0, 10) }),
  };
}

/** Never moves a provisional fact: its read's day stays. */
function unsettledStore(): MetricsStore {
  const inner = memoryMetrics();
  return {
    ...inner,
    recordMetrics: (entries) => inner.recordMetrics(entries.map(({ provisional: _, ...entry }) => entry)),
  };
}

/** Adds up a kind's facts whatever their detail: a checkout refused RSK-101 and one SUB-108 become one total. */
function detailBlindStore(): MetricsStore {
  const inner = memoryMetrics();
  return {
    ...inner,
    recordMetrics: (entries) => inner.recordMetrics(entries.map(({ detail: _, ...entry }) => entry)),
  };
}

/** Keeps details apart but answers none as an empty string, as a SQL column would hold it. */
function emptyDetailStore(): MetricsStore {
  const inner = memoryMetrics();
  return {
    ...inner,
    async readMetricDays(query) {
      const found = await inner.readMetricDays(query);
      return { ...found, days: found.days.map((day) => ({ ...day, detail: day.detail ?? '' })) };
    },
  };
}

describe('the metrics conformance suite', () => {
  it('catches a store that adds up facts of different details, or answers no detail as an empty one', async () => {
    const details = check('different details');
    await expect(details.run(detailBlindStore())).rejects.toThrow();
    await expect(details.run(emptyDetailStore())).rejects.toThrow();
    await expect(details.run(memoryMetrics())).resolves.toBeUndefined();
  });

  it('catches a store that never moves a provisional fact', async () => {
    const moves = check('a provisional fact moves');
    await expect(moves.run(unsettledStore())).rejects.toThrow();
    await expect(moves.run(memoryMetrics())).resolves.toBeUndefined();
  });

  it.each([1, 2, 3])(
    'catches a store that counts a key again, in a later call or at once (run %i)',
    async () => {
      const once = check('a key counts once');
      await expect(once.run(forgetfulStore())).rejects.toThrow();
      await expect(once.run(racyStore())).rejects.toThrow();
      await expect(once.run(memoryMetrics())).resolves.toBeUndefined();
    },
  );

  it('catches a store that buckets by a local day, drops fields or answers past the range', async () => {
    const days = check('UTC days');
    const fields = check('every field kept');
    await expect(days.run(localDayStore())).rejects.toThrow();
    await expect(days.run(inclusiveStore())).rejects.toThrow();
    await expect(fields.run(thinStore())).rejects.toThrow();
    await expect(days.run(memoryMetrics())).resolves.toBeUndefined();
    await expect(fields.run(memoryMetrics())).resolves.toBeUndefined();
  });
});
