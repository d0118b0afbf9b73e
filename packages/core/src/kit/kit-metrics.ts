import { optionError } from '../errors/option-error.js';
import { bucketsOf } from '../metrics/buckets.js';
import { checkMetricsQuery, type MetricsQuery } from '../metrics/metrics-query.js';
import { type MetricsReport, metricsReport } from '../metrics/metrics-report.js';
import type { Offers } from '../offers/define-offers.js';
import type { MetricsStore } from '../store/metrics-store.js';

/** `kit.metrics`: the store's daily totals of the buckets' days, made into the report's rows. */
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
  const buckets = bucketsOf(checked.from, checked.to, checked.interval);
  const days = await store.readMetricDays({ from: buckets.startDays[0] as string, to: buckets.endDay });
  return metricsReport(checked, days, offers.list);
}
