import { type MetricDay, type MetricDays, utcDayOf } from '../metrics/metric-day.js';
import type { MetricEntry } from '../metrics/metric-entry.js';
import type { MetricsStore } from './metrics-store.js';

type Total = { -readonly [K in keyof MetricDay]: MetricDay[K] };

/** Metrics in process memory: the keys seen (a provisional one with its entry), and a total per day, offer, kind, currency and detail. */
export function memoryMetrics(): MetricsStore {
  const seen = new Map<string, MetricEntry | undefined>();
  const totals = new Map<string, Total>();
  const add = (entry: MetricEntry, day: string, sign: 1 | -1) => {
    const { offerUid, productUid, kind, currency, detail } = entry;
    const id = `${day}\n${offerUid}\n${productUid}\n${kind}\n${currency}\n${detail ?? ''}`;
    const total = totals.get(id) ?? {
      day,
      offerUid,
      productUid,
      kind,
      currency,
      ...(detail !== undefined ? { detail } : {}),
      count: 0,
      amount: 0,
      live: 0,
    };
    total.count += sign * entry.count;
    total.amount += sign * entry.amount;
    total.live += sign * entry.live;
    totals.set(id, total);
  };
  return {
    async recordMetrics(entries: readonly MetricEntry[]) {
      const counted: MetricEntry[] = [];
      for (const entry of entries) {
        if (!seen.has(entry.key)) {
          seen.set(entry.key, entry.provisional ? entry : undefined);
          counted.push(entry);
          add(entry, utcDayOf(entry.occurredAt), 1);
          continue;
        }
        const provisional = seen.get(entry.key);
        if (provisional === undefined || entry.provisional) continue;
        // The event that a read stood for: its day is the right one.
        seen.set(entry.key, undefined);
        const from = utcDayOf(provisional.occurredAt);
        const to = utcDayOf(entry.occurredAt);
        if (from === to) continue;
        add(provisional, from, -1);
        add(provisional, to, 1);
      }
      return counted;
    },
    async readMetricDays({ from, to }): Promise<MetricDays> {
      const days: MetricDay[] = [];
      const liveBefore = new Map<string, { offerUid: string; productUid: string; live: number }>();
      for (const total of totals.values()) {
        if (total.day >= from && total.day < to) {
          if (total.count !== 0 || total.amount !== 0 || total.live !== 0) days.push({ ...total });
        } else if (total.day < from) {
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
