import { type MetricDay, type MetricDays, utcDayOf } from '../metrics/metric-day.js';
import type { MetricEntry } from '../metrics/metric-entry.js';
import type { MetricsStore } from './metrics-store.js';

type Total = { -readonly [K in keyof MetricDay]: MetricDay[K] };

/** Metrics in process memory: the keys seen, and a total per day, offer, kind and currency. */
export function memoryMetrics(): MetricsStore {
  const seen = new Set<string>();
  const totals = new Map<string, Total>();
  return {
    async recordMetrics(entries: readonly MetricEntry[]) {
      const counted: MetricEntry[] = [];
      for (const entry of entries) {
        if (seen.has(entry.key)) continue;
        seen.add(entry.key);
        counted.push(entry);
        const day = utcDayOf(entry.occurredAt);
        const id = `${day}\n${entry.offerUid}\n${entry.productUid}\n${entry.kind}\n${entry.currency}`;
        const total = totals.get(id);
        if (total === undefined) {
          const { offerUid, productUid, kind, currency, count, amount, live } = entry;
          totals.set(id, { day, offerUid, productUid, kind, currency, count, amount, live });
        } else {
          total.count += entry.count;
          total.amount += entry.amount;
          total.live += entry.live;
        }
      }
      return counted;
    },
    async readMetricDays({ from, to }): Promise<MetricDays> {
      const days: MetricDay[] = [];
      const liveBefore = new Map<string, { offerUid: string; productUid: string; live: number }>();
      for (const total of totals.values()) {
        if (total.day >= from && total.day < to) days.push({ ...total });
        else if (total.day < from) {
          const id = `${total.offerUid}\n${total.productUid}`;
          const before = liveBefore.get(id) ?? {
            offerUid: total.offerUid,
            productUid: total.productUid,
            live: 0,
          };
          before.live += total.live;
          liveBefore.set(id, before);
        }
      }
      return { days, liveBefore: [...liveBefore.values()] };
    },
  };
}
