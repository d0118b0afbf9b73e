import type { MetricsReport } from '@dcbkit/core';
import { METRICS_MEASURES } from '@dcbkit/core/store';

type MetricsRow = MetricsReport['rows'][number];

/**
 * The columns: the bucket and offer, then every number of a row as `kit.metrics` declares it
 * (METRICS_MEASURES), so a spreadsheet reads like the docs and a new number needs no change here.
 */
const COLUMNS: ReadonlyArray<readonly [string, (row: MetricsRow) => string | number]> = [
  ['start', (row) => row.start],
  ['offerUid', (row) => row.offerUid],
  ['productUid', (row) => row.productUid],
  ...METRICS_MEASURES.map(({ column, of }) => [column, of] as const),
  ['currency', (row) => row.collected.currency],
];

/**
 * One CSV cell: quoted when it holds a separator, a quote or a line break; and a text starting
 * with = + - @ (or a tab or carriage return) gets a leading apostrophe, so a spreadsheet never
 * runs it as a formula. The values are ids and numbers, but an offer uid comes from a console.
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The rows as CSV (RFC 4180: CRLF line ends), a header line first, one line per row of the report. */
export function businessCsv(rows: readonly MetricsRow[], offerUid: string): string {
  return rowsAsCsv(COLUMNS, rows, offerUid);
}

/** Any report's rows of the chosen offers ('' for every one) as CSV, under its columns' names. */
export function rowsAsCsv<Row extends { readonly offerUid: string }>(
  columns: ReadonlyArray<readonly [string, (row: Row) => string | number | boolean]>,
  rows: readonly Row[],
  offerUid: string,
): string {
  const lines = [columns.map(([name]) => name).join(',')];
  for (const row of rows) {
    if (offerUid !== '' && row.offerUid !== offerUid) continue;
    lines.push(columns.map(([, value]) => csvCell(cellValue(value(row)))).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** A flag as the word a spreadsheet reads as one. */
const cellValue = (value: string | number | boolean): string | number =>
  typeof value === 'boolean' ? String(value) : value;

/** The download's file name: the view, the period and the interval, so several downloads stay apart. */
export function businessCsvName(view: string, form: { from: string; to: string; interval: string }): string {
  return `business-${view}-${form.from}-${form.to}-${form.interval}.csv`;
}
