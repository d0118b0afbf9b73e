import { formatPrice, type MetricsReport } from '@dcbkit/core';
import { METRICS_CHARTS, METRICS_MEASURES, type MetricsChart } from '@dcbkit/core/store';
import { type BucketSums, bucketLabels, countChart, sumByBucket } from './business-bucket-sums.js';
import { type BusinessChart, minorUnits } from './business-charts.js';
import { businessCsv } from './business-csv.js';
import type { BusinessView, BusinessViewWords } from './business-view.js';

type MetricsRow = MetricsReport['rows'][number];

/** The charts whose bars are parts of one whole: the causes of churn. */
const STACKED: ReadonlySet<MetricsChart> = new Set(['churn']);

/** A row's counted numbers by column, and its money as `money:<currency>`: currencies never add up. */
function sums(row: MetricsRow): Array<[string, number]> {
  return METRICS_MEASURES.map(({ column, counts, of }): [string, number] =>
    counts === 'money' ? [`money:${row.collected.currency}`, of(row)] : [column, of(row)],
  );
}

/** Money collected per bucket, one series per currency: major units to draw, prices to read. */
function collectedChart(
  buckets: readonly BucketSums[],
  interval: MetricsReport['interval'],
  words: BusinessViewWords,
): BusinessChart {
  const currencies = [
    ...new Set(
      buckets.flatMap((bucket) => [...bucket.sums.keys()].filter((name) => name.startsWith('money:'))),
    ),
  ]
    .map((name) => name.slice('money:'.length))
    .sort();
  return {
    id: 'collected',
    title: words.t('ops.business.chart.collected'),
    kind: 'bar',
    stacked: false,
    labels: bucketLabels(buckets, interval, words.lang),
    series: currencies.map((currency) => {
      const amounts = buckets.map((bucket) => bucket.sums.get(`money:${currency}`) ?? 0);
      return {
        label: currency,
        values: amounts.map((amount) => amount / 10 ** minorUnits(currency)),
        cells: amounts.map((amount) => formatPrice({ amount, currency }, words.lang)),
      };
    }),
  };
}

/**
 * `kit.metrics`' charts, in the page's language: each chart of METRICS_CHARTS draws the measures
 * declared for it, a line for active subscribers and bars for the rest; money one series per currency.
 */
export function metricsCharts(
  report: Pick<MetricsReport, 'rows' | 'interval'>,
  offerUid: string,
  words: BusinessViewWords,
): BusinessChart[] {
  const buckets = sumByBucket(report.rows, offerUid, sums);
  return METRICS_CHARTS.map((id) =>
    id === 'collected'
      ? collectedChart(buckets, report.interval, words)
      : countChart(buckets, report.interval, words, {
          id,
          kind: id === 'active' ? 'line' : 'bar',
          stacked: STACKED.has(id),
          series: METRICS_MEASURES.filter((measure) => measure.chart === id).map(({ column }) => ({
            name: column,
            label: words.t(`ops.business.series.${column}`),
          })),
        }),
  );
}

/**
 * `kit.metrics` as a view: active subscribers, growth, renewals, churn by cause and money
 * collected, each a chart with its table; the CSV one line per bucket and offer.
 */
export const metricsView: BusinessView = {
  id: 'metrics',
  titleKey: 'ops.business.view.metrics',
  async charts(kit, { from, to, interval, offer }, words) {
    return metricsCharts(await kit.metrics({ from, to, interval }), offer, words);
  },
  async csv(kit, { from, to, interval, offer }) {
    return businessCsv((await kit.metrics({ from, to, interval })).rows, offer);
  },
};
