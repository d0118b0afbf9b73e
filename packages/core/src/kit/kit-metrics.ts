import { optionError } from '../errors/option-error.js';
import { type Buckets, bucketsBefore, bucketsOf } from '../metrics/buckets.js';
import { metricsTotals, type PeriodNumbers } from '../metrics/headline-figures.js';
import type { MetricDays } from '../metrics/metric-day.js';
import { checkMetricsQuery, type MetricsQuery } from '../metrics/metrics-query.js';
import { type MetricsReport, metricsReport } from '../metrics/metrics-report.js';
import type { Offers } from '../offers/define-offers.js';
import type { MetricsStore } from '../store/metrics-store.js';

/**
 * `kit.metrics`: the store's daily totals of the buckets' days, made into the report's rows, and
 * of as many buckets before them, for the headline figures' previous period.
 */
export async function metricsOf(
  store: MetricsStore | undefined,
  offers: Offers,
  query: MetricsQuery,
): Promise<MetricsReport> {
  const checked = checkMetricsQuery(query);
  if (store === undefined) {
    throw optionError(
      'kit.metrics',
      'store',
      'keeps no metrics (or `metrics: false` was set): use memoryStore or @dcbkit/store-postgres, or add the MetricsStore methods to yours (docs/store-authors.md).',
    );
  }
  const { interval, offerUid } = checked;
  const buckets = bucketsOf(checked.from, checked.to, interval);
  const before = bucketsBefore(buckets, interval);
  const [days, daysBefore] = await Promise.all([readDays(store, buckets), readDays(store, before)]);
  const only = <T extends { offerUid: string }>(list: readonly T[]) =>
    offerUid === undefined ? [...list] : list.filter((one) => one.offerUid === offerUid);
  const periodOf = (from: Date, to: Date, stored: MetricDays) => ({
    rows: only(metricsReport({ from, to, interval }, stored, offers.list).rows),
    liveAtStart: only(stored.liveBefore).reduce((sum, offer) => sum + offer.live, 0),
  });
  const current = periodOf(checked.from, checked.to, days) satisfies PeriodNumbers;
  const previous = periodOf(before.starts[0] as Date, before.end, daysBefore);
  return {
    from: (buckets.starts[0] as Date).toISOString(),
    to: buckets.end.toISOString(),
    interval,
    rows: current.rows,
    totals: metricsTotals(current, previous, only(offers.list)),
  };
}

function readDays(store: MetricsStore, buckets: Buckets): Promise<MetricDays> {
  return store.readMetricDays({ from: buckets.startDays[0] as string, to: buckets.endDay });
}
