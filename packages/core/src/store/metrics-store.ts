import type { MetricDays, MetricDaysQuery } from '../metrics/metric-day.js';
import type { MetricEntry } from '../metrics/metric-entry.js';

/**
 * The business view's facts, kept as daily totals, so that a year of metrics is answered from a
 * few thousand rows whatever the history's pruning. Optional in the store contract: the kit
 * records metrics when the store has these methods, and `runMetricsConformance` from
 * `@dcbkit/core/store` checks them.
 */
export interface MetricsStore {
  /**
   * Adds each entry whose `key` the store has not recorded before to its day's totals, and
   * remembers the key; an entry whose key is known adds nothing, here or on another instance at
   * the same moment, but for one case: a key first recorded by a `provisional` entry (a read's)
   * is moved, with its count, amount and live change as recorded, to the day of the first entry
   * of that key that is not provisional, once. Resolves to the entries it counted (of a key given
   * twice, the first), in the order given; a move counts nothing. All or nothing: rejects,
   * recording none of them, when the write fails.
   */
  recordMetrics(entries: readonly MetricEntry[]): Promise<MetricEntry[]>;
  /** The daily totals of the query's days, and the live subscribers as they began. */
  readMetricDays(query: MetricDaysQuery): Promise<MetricDays>;
}

/** True when the store keeps metrics (it has both MetricsStore methods). */
export function isMetricsStore<S extends object>(store: S): store is S & MetricsStore {
  const candidate = store as Partial<MetricsStore>;
  return typeof candidate.recordMetrics === 'function' && typeof candidate.readMetricDays === 'function';
}
