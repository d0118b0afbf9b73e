import type { MetricsReport } from '@dcbkit/core';
import type { Language } from '../i18n.js';

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
