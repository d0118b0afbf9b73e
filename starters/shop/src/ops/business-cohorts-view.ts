import type { DcbKit } from '@dcbkit/core';
import type { BusinessChart, ChartSeries } from './business-charts.js';
import { bucketLabel } from './business-charts.js';
import { rowsAsCsv } from './business-csv.js';
import type { BusinessView, BusinessViewWords } from './business-view.js';

type CohortRow = Awaited<ReturnType<DcbKit['cohorts']>>['rows'][number];

/** One cohort over the chosen offers: its size, and per month after it who is still paying. */
interface Cohort {
  start: string;
  size: number;
  retained: Array<{ subscribers: number; complete: boolean }>;
}

/** The rows of the chosen offers ('' for all) added up per cohort month, cell by cell. */
function cohortsOf(rows: readonly CohortRow[], offerUid: string): Cohort[] {
  const cohorts = new Map<string, Cohort>();
  for (const row of rows) {
    const cohort = cohorts.get(row.start) ?? { start: row.start, size: 0, retained: [] };
    cohorts.set(row.start, cohort);
    if (offerUid !== '' && row.offerUid !== offerUid) continue;
    cohort.size += row.size;
    row.retained.forEach((cell, k) => {
      const sum = cohort.retained[k] ?? { subscribers: 0, complete: cell.complete };
      sum.subscribers += cell.subscribers;
      cohort.retained[k] = sum;
    });
  }
  return [...cohorts.values()];
}

/** One line per cohort, offer and month after: a long table a spreadsheet pivots as it likes. */
interface CohortCellLine {
  readonly offerUid: string;
  readonly row: CohortRow;
  readonly k: number;
}

const COLUMNS: ReadonlyArray<readonly [string, (line: CohortCellLine) => string | number | boolean]> = [
  ['start', ({ row }) => row.start],
  ['offerUid', ({ row }) => row.offerUid],
  ['productUid', ({ row }) => row.productUid],
  ['size', ({ row }) => row.size],
  ['monthsAfter', ({ k }) => k],
  ['end', ({ row, k }) => row.retained[k]?.end ?? ''],
  ['retained', ({ row, k }) => row.retained[k]?.subscribers ?? 0],
  ['complete', ({ row, k }) => row.retained[k]?.complete ?? false],
];

/** The retention table: each cohort's size, then month by month the share of it still paying. */
function retentionCharts(cohorts: readonly Cohort[], { t, lang }: BusinessViewWords): BusinessChart[] {
  const number = new Intl.NumberFormat(lang);
  const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
  const labels = cohorts.map((cohort) => bucketLabel(cohort.start, 'month', lang));
  const rowHeader = t('ops.business.bucket.cohort');
  const months = Math.max(0, ...cohorts.map((cohort) => cohort.retained.length));
  const sizes = cohorts.map((cohort) => cohort.size);
  const retention = Array.from({ length: months }, (_, k): ChartSeries => {
    const cells = cohorts.map((cohort) => cohort.retained[k]);
    const shares = cells.map((cell, index) => {
      const size = sizes[index] ?? 0;
      return cell === undefined || size === 0 ? undefined : cell.subscribers / size;
    });
    return {
      label: t('ops.business.series.cohort.month', { k: number.format(k) }),
      values: shares.map((share) => Math.round((share ?? 0) * 1000) / 10),
      cells: shares.map((share, index) => {
        if (share === undefined) return t('ops.business.cell.none');
        const shown = percent.format(share);
        // Not only a colour: a month not over is said in words, its share can still change.
        return cells[index]?.complete ? shown : t('ops.business.cell.incomplete', { value: shown });
      }),
    };
  });
  return [
    {
      id: 'cohortSizes',
      title: t('ops.business.chart.cohortSizes'),
      kind: 'bar',
      stacked: false,
      labels,
      rowHeader,
      series: [
        {
          label: t('ops.business.series.cohort.size'),
          values: sizes,
          cells: sizes.map((size) => number.format(size)),
        },
      ],
    },
    {
      id: 'retention',
      title: t('ops.business.chart.retention'),
      kind: 'line',
      stacked: false,
      labels,
      rowHeader,
      series: retention,
    },
  ];
}

/**
 * `kit.cohorts` as a view, always by month whatever the form's interval (the kit counts cohorts by
 * month only, and the page says so): the months holding the page's period, each cohort's size and
 * its retention as a share of it; the CSV one line per cohort, offer and month after.
 */
export const cohortsView: BusinessView = {
  id: 'cohorts',
  titleKey: 'ops.business.view.cohorts',
  noteKey: 'ops.business.note.cohorts',
  async charts(kit, { from, to, offer }, words) {
    const report = await kit.cohorts({ from, to, interval: 'month' });
    return retentionCharts(cohortsOf(report.rows, offer), words);
  },
  async csv(kit, { from, to, offer }) {
    const report = await kit.cohorts({ from, to, interval: 'month' });
    const lines = report.rows.flatMap((row) =>
      row.retained.map((_, k): CohortCellLine => ({ offerUid: row.offerUid, row, k })),
    );
    return rowsAsCsv(COLUMNS, lines, offer);
  },
};
