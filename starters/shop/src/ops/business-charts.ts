import { formatPrice, type MetricsReport } from '@dcbkit/core';
import type { Language } from '../i18n.js';
import type { Words } from './history-rows.js';

type MetricsRow = MetricsReport['rows'][number];

/** One line (or set of bars) of a chart, and the same numbers as its table's column. */
export interface ChartSeries {
  label: string;
  /** What the chart draws: counts, or money in major units (12.5 for 12.500 TND). */
  values: number[];
  /** What the table shows: the same values formatted in the page's language. */
  cells: string[];
}

export interface BusinessChart {
  /** The figure's id and its canvas's (`chart-<id>`). */
  id: string;
  title: string;
  kind: 'line' | 'bar';
  /** Bars on top of each other: parts of one whole (the causes of churn). */
  stacked: boolean;
  /** The buckets, in the page's language (or a view's own rows: the cohorts). */
  labels: string[];
  /** The table's first column's heading when its rows are not the form's buckets (the cohorts' months). */
  rowHeader?: string;
  series: ChartSeries[];
}

/** What one bucket of the chosen offers adds up to. Money stays per currency: they never add up. */
interface Bucket {
  start: string;
  counts: Map<string, number>;
  collected: Map<string, number>;
}

const COUNTS: Record<string, (row: MetricsRow) => number> = {
  activeSubscribers: (row) => row.activeSubscribers,
  newSubscriptions: (row) => row.newSubscriptions,
  trialsStarted: (row) => row.trialsStarted,
  trialsConverted: (row) => row.trialsConverted,
  renewalsCollected: (row) => row.renewalsCollected,
  renewalsFailed: (row) => row.renewalsFailed,
  graceRecovered: (row) => row.graceRecovered,
  canceled: (row) => row.churned.canceled,
  expired: (row) => row.churned.expired,
  suspended: (row) => row.churned.suspended,
  revoked: (row) => row.churned.revoked,
};

/** The report's rows summed per bucket, over every offer ('') or one. */
export function bucketTotals(rows: readonly MetricsRow[], offerUid: string): Bucket[] {
  const buckets = new Map<string, Bucket>();
  for (const row of rows) {
    const bucket = buckets.get(row.start) ?? { start: row.start, counts: new Map(), collected: new Map() };
    buckets.set(row.start, bucket);
    if (offerUid !== '' && row.offerUid !== offerUid) continue;
    for (const [name, count] of Object.entries(COUNTS)) {
      bucket.counts.set(name, (bucket.counts.get(name) ?? 0) + count(row));
    }
    const { amount, currency } = row.collected;
    bucket.collected.set(currency, (bucket.collected.get(currency) ?? 0) + amount);
  }
  return [...buckets.values()];
}

/** The bucket's first day, as the interval names it: a month by its name, a day or week by its date. */
export function bucketLabel(start: string, interval: MetricsReport['interval'], lang: Language): string {
  const options: Intl.DateTimeFormatOptions =
    interval === 'month' ? { month: 'short', year: 'numeric' } : { dateStyle: 'medium' };
  // The buckets are UTC days: shown in UTC, so a bucket never slips to the day before.
  return new Intl.DateTimeFormat(lang, { ...options, timeZone: 'UTC' }).format(new Date(start));
}

/** A currency's minor units (3 for TND), from the platform's currency data as formatPrice uses. */
export function minorUnits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/**
 * The page's five charts from the report, in the page's language: active subscribers; growth;
 * renewals; churn by cause; money collected, one series per currency.
 */
export function businessCharts(
  report: Pick<MetricsReport, 'rows' | 'interval'>,
  offerUid: string,
  { t, lang }: Pick<Words, 't'> & { lang: Language },
): BusinessChart[] {
  const buckets = bucketTotals(report.rows, offerUid);
  const labels = buckets.map((bucket) => bucketLabel(bucket.start, report.interval, lang));
  const number = new Intl.NumberFormat(lang);
  const counted = (name: string): ChartSeries => {
    const values = buckets.map((bucket) => bucket.counts.get(name) ?? 0);
    return {
      label: t(`ops.business.series.${name}`),
      values,
      cells: values.map((value) => number.format(value)),
    };
  };
  const chart = (
    id: string,
    kind: BusinessChart['kind'],
    names: string[],
    stacked = false,
  ): BusinessChart => ({
    id,
    title: t(`ops.business.chart.${id}`),
    kind,
    stacked,
    labels,
    series: names.map(counted),
  });
  const currencies = [...new Set(buckets.flatMap((bucket) => [...bucket.collected.keys()]))].sort();
  return [
    chart('active', 'line', ['activeSubscribers']),
    chart('growth', 'bar', ['newSubscriptions', 'trialsStarted', 'trialsConverted']),
    chart('renewals', 'bar', ['renewalsCollected', 'renewalsFailed', 'graceRecovered']),
    chart('churn', 'bar', ['canceled', 'expired', 'suspended', 'revoked'], true),
    {
      id: 'collected',
      title: t('ops.business.chart.collected'),
      kind: 'bar',
      stacked: false,
      labels,
      series: currencies.map((currency) => {
        const amounts = buckets.map((bucket) => bucket.collected.get(currency) ?? 0);
        return {
          label: currency,
          values: amounts.map((amount) => amount / 10 ** minorUnits(currency)),
          cells: amounts.map((amount) => formatPrice({ amount, currency }, lang)),
        };
      }),
    },
  ];
}
