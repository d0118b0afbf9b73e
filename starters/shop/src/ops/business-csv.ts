import type { MetricsReport } from '@dcbkit/core';

type MetricsRow = MetricsReport['rows'][number];

/** The columns, named as `kit.metrics` names the numbers, so a spreadsheet reads like the docs. */
const COLUMNS: ReadonlyArray<[string, (row: MetricsRow) => string | number]> = [
  ['start', (row) => row.start],
  ['offerUid', (row) => row.offerUid],
  ['productUid', (row) => row.productUid],
  ['activeSubscribers', (row) => row.activeSubscribers],
  ['trialsStarted', (row) => row.trialsStarted],
  ['trialsConverted', (row) => row.trialsConverted],
  ['newSubscriptions', (row) => row.newSubscriptions],
  ['renewalsCollected', (row) => row.renewalsCollected],
  ['renewalsFailed', (row) => row.renewalsFailed],
  ['graceRecovered', (row) => row.graceRecovered],
  ['churnedCanceled', (row) => row.churned.canceled],
  ['churnedExpired', (row) => row.churned.expired],
  ['churnedSuspended', (row) => row.churned.suspended],
  ['churnedRevoked', (row) => row.churned.revoked],
  ['unitsSold', (row) => row.unitsSold],
  ['unitsSpent', (row) => row.unitsSpent],
  ['unlocksSold', (row) => row.unlocksSold],
  ['collectedMinorUnits', (row) => row.collected.amount],
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
