import type { MetricsReport } from '@dcbkit/core';
import { describe, expect, it } from 'vitest';
import { translator } from '../i18n.js';
import { metricsRow } from '../test-support/metrics-rows.js';
import { bucketLabel } from './business-charts.js';
import { metricsCharts } from './business-metrics-view.js';

const W1 = '2030-01-07T00:00:00.000Z';
const W2 = '2030-01-14T00:00:00.000Z';

const report: Pick<MetricsReport, 'rows' | 'interval' | 'from' | 'to'> = {
  from: W1,
  to: '2030-01-21T00:00:00.000Z',
  interval: 'week',
  rows: [
    metricsRow(W1, 'offer_premium_monthly', {
      activeSubscribers: 2,
      trialsStarted: 2,
      churned: { canceled: 1 },
    }),
    metricsRow(W1, 'offer_day_pass', { unitsSold: 1, collected: { amount: 1000, currency: 'TND' } }),
    metricsRow(W2, 'offer_premium_monthly', {
      activeSubscribers: 3,
      trialsConverted: 1,
      renewalsFailed: 1,
      collected: { amount: 4500, currency: 'TND' },
    }),
    metricsRow(W2, 'offer_day_pass', { collected: { amount: 250, currency: 'EUR' } }),
  ],
};

const chartOf = (charts: ReturnType<typeof metricsCharts>, id: string) => {
  const chart = charts.find((one) => one.id === id);
  if (!chart) throw new Error(`no chart ${id}`);
  return chart;
};

describe('the Business page’s charts', () => {
  const en = { t: translator('en'), lang: 'en' as const };

  it('sums the offers per bucket, one series per number, in the page’s words', () => {
    const charts = metricsCharts(report, '', en);
    expect(charts.map((chart) => chart.id)).toEqual(['active', 'growth', 'renewals', 'churn', 'collected']);
    const active = chartOf(charts, 'active');
    expect(active.title).toBe('Active subscribers');
    expect(active.labels).toEqual(['Jan 7, 2030', 'Jan 14, 2030']);
    expect(active.series).toEqual([{ label: 'Active subscribers', values: [2, 3], cells: ['2', '3'] }]);
    const growth = chartOf(charts, 'growth');
    expect(growth.series.map((series) => [series.label, series.values])).toEqual([
      ['Trials started', [2, 0]],
      ['Trials converted', [0, 1]],
      ['New subscriptions', [0, 0]],
    ]);
    expect(chartOf(charts, 'renewals').series[1]?.values).toEqual([0, 1]);
    const churn = chartOf(charts, 'churn');
    expect(churn.stacked).toBe(true);
    expect(churn.series.map((series) => series.values)).toEqual([
      [1, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
  });

  it('keeps each currency apart, charted in major units and shown as prices', () => {
    const collected = chartOf(metricsCharts(report, '', en), 'collected');
    expect(collected.series.map((series) => series.label)).toEqual(['EUR', 'TND']);
    expect(collected.series[0]?.values).toEqual([0, 2.5]);
    expect(collected.series[1]?.values).toEqual([1, 4.5]);
    expect(collected.series[1]?.cells[1]).toMatch(/^TND\s?4\.500$/);
  });

  it('shows one offer alone, every bucket kept', () => {
    const charts = metricsCharts(report, 'offer_day_pass', en);
    expect(chartOf(charts, 'active').series[0]?.values).toEqual([0, 0]);
    expect(chartOf(charts, 'active').labels).toHaveLength(2);
    expect(chartOf(charts, 'collected').series.map((series) => series.values)).toEqual([
      [0, 2.5],
      [1, 0],
    ]);
  });

  it('formats buckets and numbers in the page’s language, months by name, in UTC', () => {
    const fr = metricsCharts(report, '', { t: translator('fr'), lang: 'fr' });
    expect(chartOf(fr, 'growth').series[0]?.label).toBe('Essais commencés');
    expect(chartOf(fr, 'active').labels[0]).toBe('7 janv. 2030');
    const ar = metricsCharts(report, '', { t: translator('ar'), lang: 'ar' });
    expect(chartOf(ar, 'active').title).toBe('المشتركون النشطون');
    expect(ar[0]?.series[0]?.cells[1]).toBe(new Intl.NumberFormat('ar').format(3));
    expect(bucketLabel('2030-03-01T00:00:00.000Z', 'month', 'en')).toBe('Mar 2030');
    // Midnight UTC is still the 1st, whatever the machine's zone.
    expect(bucketLabel('2030-03-01T00:00:00.000Z', 'day', 'en')).toBe('Mar 1, 2030');
  });
});
