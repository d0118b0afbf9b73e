import { optionError } from '../errors/option-error.js';
import { bucketsOf } from '../metrics/buckets.js';
import { type CheckoutFunnelReport, checkoutFunnel } from '../metrics/checkout-funnel.js';
import type { MetricDays } from '../metrics/metric-day.js';
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
  return metricsReport(checked, await daysOf(store, checked, 'kit.metrics'), offers.list);
}

/** `kit.checkoutFunnel`: the same daily totals, made into the checkout funnel's rows. */
export async function checkoutFunnelOf(
  store: MetricsStore | undefined,
  offers: Offers,
  query: MetricsQuery,
): Promise<CheckoutFunnelReport> {
  const checked = checkMetricsQuery(query, 'kit.checkoutFunnel');
  const { days } = await daysOf(store, checked, 'kit.checkoutFunnel');
  return checkoutFunnel(checked, days, offers.list);
}

/** The store's daily totals of the buckets' days; an `invalid_option` naming `where` when it keeps none. */
async function daysOf(
  store: MetricsStore | undefined,
  checked: Required<MetricsQuery>,
  where: string,
): Promise<MetricDays> {
  if (store === undefined) {
    throw optionError(
      where,
      'store',
      'keeps no metrics (or `metrics: false` was set): use memoryStore or @dcbkit/store-postgres, or add the MetricsStore methods to yours (docs/store-authors.md).',
    );
  }
  const buckets = bucketsOf(checked.from, checked.to, checked.interval);
  return store.readMetricDays({ from: buckets.startDays[0] as string, to: buckets.endDay });
}
