import type { DcbKit } from '@dcbkit/core';
import { countChart, sumByBucket } from './business-bucket-sums.js';
import { rowsAsCsv } from './business-csv.js';
import type { BusinessView } from './business-view.js';

type TrialRow = Awaited<ReturnType<DcbKit['trialFunnel']>>['rows'][number];

/** What the trials begun in a bucket became so far, in the report's own names. */
const OUTCOMES = ['started', 'converted', 'inTrial', 'canceled', 'failedToPay'] as const;

const COLUMNS: ReadonlyArray<readonly [string, (row: TrialRow) => string | number]> = [
  ['start', (row) => row.start],
  ['offerUid', (row) => row.offerUid],
  ['productUid', (row) => row.productUid],
  ...OUTCOMES.map((name) => [name, (row: TrialRow) => row[name]] as const),
];

/**
 * `kit.trialFunnel` as a view: the free trials begun per bucket and what each became as of now;
 * the CSV one line per bucket and offer. The kit answers every offer: the filter drops rows here.
 */
export const trialFunnelView: BusinessView = {
  id: 'trials',
  titleKey: 'ops.business.view.trials',
  noteKey: 'ops.business.note.trials',
  async charts(kit, { from, to, interval, offer }, words) {
    const report = await kit.trialFunnel({ from, to, interval });
    const buckets = sumByBucket(report.rows, offer, (row) => OUTCOMES.map((name) => [name, row[name]]));
    return [
      countChart(buckets, report.interval, words, {
        id: 'trialOutcomes',
        kind: 'bar',
        series: OUTCOMES.map((name) => ({ name, label: words.t(`ops.business.series.trial.${name}`) })),
      }),
    ];
  },
  async csv(kit, { from, to, interval, offer }) {
    return rowsAsCsv(COLUMNS, (await kit.trialFunnel({ from, to, interval })).rows, offer);
  },
};
