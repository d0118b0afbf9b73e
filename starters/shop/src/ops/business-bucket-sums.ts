import type { MetricsReport } from '@dcbkit/core';
import type { Language } from '../i18n.js';
import { type BusinessChart, bucketLabel, type ChartSeries } from './business-charts.js';
import type { BusinessViewWords } from './business-view.js';

/** What every report's row has: its bucket and its offer. */
export interface BucketedRow {
  readonly start: string;
  readonly offerUid: string;
}

/** One bucket's numbers, by name, summed over the chosen offers. */
export interface BucketSums {
  start: string;
  sums: Map<string, number>;
}

/**
 * The rows summed per bucket and per name, over every offer ('') or one. A bucket with no row of
 * the chosen offer stays, at zero, so every chart of a view has the same buckets.
 */
export function sumByBucket<Row extends BucketedRow>(
  rows: readonly Row[],
  offerUid: string,
  named: (row: Row) => Iterable<[string, number]>,
): BucketSums[] {
  const buckets = new Map<string, BucketSums>();
  for (const row of rows) {
    const bucket = buckets.get(row.start) ?? { start: row.start, sums: new Map() };
    buckets.set(row.start, bucket);
    if (offerUid !== '' && row.offerUid !== offerUid) continue;
    for (const [name, value] of named(row)) bucket.sums.set(name, (bucket.sums.get(name) ?? 0) + value);
  }
  return [...buckets.values()];
}

/** A chart of counts over the buckets: one series per name, each labelled by its message key. */
export function countChart(
  buckets: readonly BucketSums[],
  interval: MetricsReport['interval'],
  { t, lang }: BusinessViewWords,
  chart: {
    id: string;
    kind: BusinessChart['kind'];
    stacked?: boolean;
    series: Array<{ name: string; label: string }>;
  },
): BusinessChart {
  const number = new Intl.NumberFormat(lang);
  return {
    id: chart.id,
    title: t(`ops.business.chart.${chart.id}`),
    kind: chart.kind,
    stacked: chart.stacked ?? false,
    labels: bucketLabels(buckets, interval, lang),
    series: chart.series.map(({ name, label }): ChartSeries => {
      const values = buckets.map((bucket) => bucket.sums.get(name) ?? 0);
      return { label, values, cells: values.map((value) => number.format(value)) };
    }),
  };
}

export function bucketLabels(
  buckets: readonly { start: string }[],
  interval: MetricsReport['interval'],
  lang: Language,
): string[] {
  return buckets.map((bucket) => bucketLabel(bucket.start, interval, lang));
}
