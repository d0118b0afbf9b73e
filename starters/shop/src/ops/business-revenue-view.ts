import { type DcbKit, formatPrice } from '@dcbkit/core';
import { type BucketSums, bucketLabels, sumByBucket } from './business-bucket-sums.js';
import { type BusinessChart, type ChartSeries, minorUnits } from './business-charts.js';
import { rowsAsCsv } from './business-csv.js';
import type { BusinessView, BusinessViewWords } from './business-view.js';

type RevenueRow = Awaited<ReturnType<DcbKit['revenueMovements']>>['rows'][number];

/** The movements of the recurring revenue per month, in the report's names, then where it ended. */
const MOVES = ['newRevenue', 'reactivatedRevenue', 'churnedRevenue', 'netRevenue'] as const;
type Measure = (typeof MOVES)[number] | 'recurringRevenue';

/** Money adds up within one currency only: each sum is named by its measure and its currency. */
const sumName = (measure: Measure, currency: string) => `${measure}:${currency}`;

function sums(row: RevenueRow): Array<[string, number]> {
  return [...MOVES, 'recurringRevenue' as const].map((measure) => [
    sumName(measure, row[measure].currency),
    row[measure].amount,
  ]);
}

const COLUMNS: ReadonlyArray<readonly [string, (row: RevenueRow) => string | number | boolean]> = [
  ['start', (row) => row.start],
  ['offerUid', (row) => row.offerUid],
  ['productUid', (row) => row.productUid],
  ['currency', (row) => row.recurringRevenue.currency],
  ['newSubscriptions', (row) => row.newSubscriptions],
  ['newMinorUnits', (row) => row.newRevenue.amount],
  ['reactivatedSubscriptions', (row) => row.reactivatedSubscriptions],
  ['reactivatedMinorUnits', (row) => row.reactivatedRevenue.amount],
  ['churnedSubscriptions', (row) => row.churnedSubscriptions],
  ['churnedMinorUnits', (row) => row.churnedRevenue.amount],
  ['netMinorUnits', (row) => row.netRevenue.amount],
  ['recurringRevenueMinorUnits', (row) => row.recurringRevenue.amount],
  ['complete', (row) => row.complete],
];

/** One series of money over the buckets: major units to draw, the price in the language to read. */
function moneySeries(
  buckets: readonly BucketSums[],
  measure: Measure,
  currency: string,
  { t, lang }: BusinessViewWords,
  unfinished: ReadonlySet<string>,
): ChartSeries {
  const amounts = buckets.map((bucket) => bucket.sums.get(sumName(measure, currency)) ?? 0);
  return {
    label: t(`ops.business.series.revenue.${measure}`, { currency }),
    values: amounts.map((amount) => amount / 10 ** minorUnits(currency)),
    cells: amounts.map((amount, index) => {
      const price = formatPrice({ amount, currency }, lang);
      // A bucket not over yet: its revenue is as of now, and the table says so in words.
      return unfinished.has(buckets[index]?.start ?? '')
        ? t('ops.business.cell.soFar', { value: price })
        : price;
    }),
  };
}

/**
 * `kit.revenueMovements` as a view: per currency (they never add up), the new, reactivated,
 * churned and net recurring revenue per month of each bucket, and the recurring revenue as each
 * bucket ended; the CSV one line per bucket, offer and currency.
 */
export const revenueMovementsView: BusinessView = {
  id: 'revenue',
  titleKey: 'ops.business.view.revenue',
  noteKey: 'ops.business.note.revenue',
  async charts(kit, { from, to, interval, offer }, words) {
    const report = await kit.revenueMovements({ from, to, interval });
    const buckets = sumByBucket(report.rows, offer, sums);
    const chosen = report.rows.filter((row) => offer === '' || row.offerUid === offer);
    const currencies = [...new Set(chosen.map((row) => row.recurringRevenue.currency))].sort();
    const unfinished = new Set(report.rows.filter((row) => !row.complete).map((row) => row.start));
    const labels = bucketLabels(buckets, report.interval, words.lang);
    const chart = (id: string, kind: BusinessChart['kind'], measures: readonly Measure[]): BusinessChart => ({
      id,
      title: words.t(`ops.business.chart.${id}`),
      kind,
      stacked: false,
      labels,
      series: currencies.flatMap((currency) =>
        measures.map((measure) => moneySeries(buckets, measure, currency, words, unfinished)),
      ),
    });
    return [chart('revenueMoves', 'bar', MOVES), chart('mrr', 'line', ['recurringRevenue'])];
  },
  async csv(kit, { from, to, interval, offer }) {
    return rowsAsCsv(COLUMNS, (await kit.revenueMovements({ from, to, interval })).rows, offer);
  },
};
