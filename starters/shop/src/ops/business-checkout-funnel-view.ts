import type { DcbKit } from '@dcbkit/core';
import { countChart, sumByBucket } from './business-bucket-sums.js';
import { rowsAsCsv } from './business-csv.js';
import type { BusinessView, BusinessViewQuery } from './business-view.js';

type FunnelRow = Awaited<ReturnType<DcbKit['checkoutFunnel']>>['rows'][number];

/** How a checkout ended, in the funnel's order; refused and failed summed over their codes. */
const OUTCOMES = ['started', 'succeeded', 'refused', 'failed', 'expired', 'canceled', 'pending'] as const;

const total = (byCode: Readonly<Record<string, number>>) =>
  Object.values(byCode).reduce((sum, n) => sum + n, 0);

function outcomes(row: FunnelRow): Array<[string, number]> {
  return [
    ['started', row.started],
    ['succeeded', row.succeeded],
    ['refused', total(row.refused)],
    ['failed', total(row.failed)],
    ['expired', row.expired],
    ['canceled', row.canceled],
    ['pending', row.pending],
  ];
}

/** Each code under its ending's name (`refused:RSK-101`), so a code both ways stays two columns. */
function codes(row: FunnelRow): Array<[string, number]> {
  return [
    ...Object.entries(row.refused).map(([code, n]): [string, number] => [`refused:${code}`, n]),
    ...Object.entries(row.failed).map(([code, n]): [string, number] => [`failed:${code}`, n]),
  ];
}

/** The codes as one cell: `RSK-101:2;SBR-102:1`, sorted, so a spreadsheet can split them. */
const codeCell = (byCode: Readonly<Record<string, number>>) =>
  Object.entries(byCode)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, n]) => `${code}:${n}`)
    .join(';');

const COLUMNS: ReadonlyArray<readonly [string, (row: FunnelRow) => string | number]> = [
  ['start', (row) => row.start],
  ['offerUid', (row) => row.offerUid],
  ['productUid', (row) => row.productUid],
  ['started', (row) => row.started],
  ['succeeded', (row) => row.succeeded],
  ['refused', (row) => total(row.refused)],
  ['failed', (row) => total(row.failed)],
  ['expired', (row) => row.expired],
  ['canceled', (row) => row.canceled],
  ['pending', (row) => row.pending],
  ['refusedCodes', (row) => codeCell(row.refused)],
  ['failedCodes', (row) => codeCell(row.failed)],
];

/** The kit answers one offer itself: no rows of the others to read and drop. */
const funnel = (kit: DcbKit, { from, to, interval, offer }: BusinessViewQuery) =>
  kit.checkoutFunnel({ from, to, interval, ...(offer === '' ? {} : { offerUid: offer }) });

/**
 * `kit.checkoutFunnel` as a view: the checkouts started per bucket and how they ended, then the
 * service's codes of the refused and failed ones; the CSV one line per bucket and offer.
 */
export const checkoutFunnelView: BusinessView = {
  id: 'checkouts',
  titleKey: 'ops.business.view.checkouts',
  noteKey: 'ops.business.note.checkouts',
  async charts(kit, query, words) {
    const report = await funnel(kit, query);
    const buckets = sumByBucket(report.rows, query.offer, (row) => [...outcomes(row), ...codes(row)]);
    const codeNames = [...new Set(report.rows.flatMap((row) => codes(row).map(([name]) => name)))].sort();
    return [
      countChart(buckets, report.interval, words, {
        id: 'checkoutOutcomes',
        kind: 'bar',
        series: OUTCOMES.map((name) => ({ name, label: words.t(`ops.business.series.checkout.${name}`) })),
      }),
      countChart(buckets, report.interval, words, {
        id: 'checkoutCodes',
        kind: 'bar',
        stacked: true,
        series: codeNames.map((name) => {
          const [ending = '', code = ''] = name.split(':');
          // A failure the service gave no code for (`none`, as kit.checkoutFunnel counts it) is said in the page's words.
          const shown = code === 'none' ? words.t('ops.business.series.checkout.code.none') : code;
          return { name, label: words.t(`ops.business.series.checkout.code.${ending}`, { code: shown }) };
        }),
      }),
    ];
  },
  async csv(kit, query) {
    return rowsAsCsv(COLUMNS, (await funnel(kit, query)).rows, query.offer);
  },
};
