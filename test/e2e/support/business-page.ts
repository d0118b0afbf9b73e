import type { Page } from 'playwright-core';
import type { FunnelCounted } from '../../metrics/funnel-truth.js';
import type { CohortTruth } from '../../metrics/lifecycle-truth.js';
import { type Counted, withoutEmpty } from '../../metrics/sandbox-truth.js';
import type { ShownPage } from './business-expected.js';

/** What the operator asks the page for: a period, an interval, one offer or all. */
export interface BusinessForm {
  from: string;
  to: string;
  interval: string;
  offer?: string;
}

/** Fills the page's form as an operator does and asks for the view. */
export async function askBusiness(page: Page, form: BusinessForm): Promise<void> {
  await page.locator('#business-from').fill(form.from);
  await page.locator('#business-to').fill(form.to);
  await page.locator('#business-interval').selectOption(form.interval);
  await page.locator('#business-offer').selectOption(form.offer ?? '');
  await Promise.all([
    page.waitForURL(/\/ops\/business\?/),
    page.locator('form.business-form button').click(),
  ]);
}

/** Every table of `chartIds` (header row first, each row's label then its cells) and every headline card. */
export async function readShownPage(page: Page, chartIds: readonly string[]): Promise<ShownPage> {
  const tables: ShownPage['tables'] = {};
  for (const id of chartIds) {
    const rows = await page.locator(`section#${id} table tr`).all();
    tables[id] = await Promise.all(
      rows.map(async (row) => (await row.locator('th, td').allTextContents()).map((cell) => cell.trim())),
    );
  }
  const headline: ShownPage['headline'] = {};
  for (const card of await page.locator('dl.headline-figures > div.figure').all()) {
    const text = async (selector: string) => ((await card.locator(selector).textContent()) ?? '').trim();
    // The change shown is "<signed change> · before: <previous>", or "before: —" with no trend.
    const change = await text('.figure-change bdi');
    headline[((await card.getAttribute('id')) ?? '').replace(/^figure-/, '')] = {
      label: await text('dt'),
      value: await text('.figure-value'),
      before: change.split(' · ').at(-1) ?? '',
    };
  }
  return { tables, headline };
}

/** A view's CSV as its link on the page serves it: one record per line, by column name. */
export async function readCsv(page: Page, viewId: string): Promise<Array<Record<string, string>>> {
  const href = await page.locator(`a[href^="/ops/business/${viewId}.csv"]`).getAttribute('href');
  if (href === null) throw new Error(`the page has no link to ${viewId}.csv`);
  const csv = await page.evaluate(async (url) => (await fetch(url)).text(), href);
  // The values are ids, numbers, codes and flags: no cell is quoted.
  const [header = [], ...lines] = csv
    .trim()
    .split('\r\n')
    .map((line) => line.split(','));
  return lines.map((line) => Object.fromEntries(header.map((name, index) => [name, line[index] ?? ''])));
}

const numbers = (line: Record<string, string>, names: readonly string[]) =>
  names.map((name) => Number(line[name]));

/** metrics.csv as the sandbox truth's rows, empty ones left out. */
export function countedOfCsv(lines: ReadonlyArray<Record<string, string>>): Map<string, Counted> {
  const rows = new Map<string, Counted>();
  for (const line of lines) {
    const count = (name: string) => Number(line[name]);
    rows.set(`${line.start}|${line.offerUid}`, {
      offerUid: line.offerUid ?? '',
      activeSubscribers: count('activeSubscribers'),
      trialsStarted: count('trialsStarted'),
      trialsConverted: count('trialsConverted'),
      newSubscriptions: count('newSubscriptions'),
      renewalsCollected: count('renewalsCollected'),
      renewalsFailed: count('renewalsFailed'),
      graceRecovered: count('graceRecovered'),
      churned: {
        canceled: count('churnedCanceled'),
        expired: count('churnedExpired'),
        suspended: count('churnedSuspended'),
        revoked: count('churnedRevoked'),
      },
      unitsSold: count('unitsSold'),
      unitsSpent: count('unitsSpent'),
      unlocksSold: count('unlocksSold'),
      collected: count('collectedMinorUnits'),
    });
  }
  return withoutEmpty(rows);
}

/** `RSK-101:2;SBR-102:1` as `{ 'RSK-101': 2, 'SBR-102': 1 }`; its total must be the column's. */
function codesOf(cell: string, total: number): Record<string, number> {
  const codes = Object.fromEntries(
    cell
      .split(';')
      .filter((part) => part !== '')
      .map((part) => {
        const [code = '', n = ''] = part.split(':');
        return [code, Number(n)];
      }),
  );
  const sum = Object.values(codes).reduce((a, b) => a + b, 0);
  if (sum !== total) throw new Error(`the CSV's codes ${cell} add up to ${sum}, not its ${total}`);
  return codes;
}

/** checkouts.csv as the funnel truth's rows, those with no checkout left out. */
export function checkoutsOfCsv(lines: ReadonlyArray<Record<string, string>>): Map<string, FunnelCounted> {
  const rows = new Map<string, FunnelCounted>();
  for (const line of lines) {
    const [started, succeeded, refused, failed, expired, canceled, pending] = numbers(line, [
      'started',
      'succeeded',
      'refused',
      'failed',
      'expired',
      'canceled',
      'pending',
    ]) as [number, number, number, number, number, number, number];
    if (started === 0) continue;
    rows.set(`${line.start}|${line.offerUid}`, {
      offerUid: line.offerUid ?? '',
      started,
      succeeded,
      refused: codesOf(line.refusedCodes ?? '', refused),
      failed: codesOf(line.failedCodes ?? '', failed),
      expired,
      canceled,
      pending,
    });
  }
  return rows;
}

/** trials.csv as the lifecycle truth's trial funnel: started, converted, in trial, cancelled, failed to pay. */
export function trialsOfCsv(lines: ReadonlyArray<Record<string, string>>): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  for (const line of lines) {
    const row = numbers(line, ['started', 'converted', 'inTrial', 'canceled', 'failedToPay']);
    if (row[0] !== 0) rows.set(`${line.start}|${line.offerUid}`, row);
  }
  return rows;
}

/** revenue.csv as the lifecycle truth's movements, and whether each bucket is over. */
export function revenueOfCsv(lines: ReadonlyArray<Record<string, string>>): {
  moves: Map<string, number[]>;
  complete: Map<string, boolean>;
} {
  const moves = new Map<string, number[]>();
  const complete = new Map<string, boolean>();
  for (const line of lines) {
    const row = numbers(line, [
      'newSubscriptions',
      'newMinorUnits',
      'reactivatedSubscriptions',
      'reactivatedMinorUnits',
      'churnedSubscriptions',
      'churnedMinorUnits',
      'netMinorUnits',
      'recurringRevenueMinorUnits',
    ]);
    if (row.some((n) => n !== 0)) moves.set(`${line.start}|${line.offerUid}|${line.currency}`, row);
    complete.set(line.start ?? '', line.complete === 'true');
  }
  return { moves, complete };
}

/** cohorts.csv (one line per cohort, offer and month after) as the lifecycle truth's cohorts. */
export function cohortsOfCsv(lines: ReadonlyArray<Record<string, string>>): Map<string, CohortTruth> {
  const cohorts = new Map<string, CohortTruth>();
  for (const line of lines) {
    if (Number(line.size) === 0) continue;
    const key = `${line.start}|${line.offerUid}`;
    const cohort: CohortTruth = cohorts.get(key) ?? [Number(line.size), []];
    cohort[1][Number(line.monthsAfter)] = [Number(line.retained), line.complete === 'true'];
    cohorts.set(key, cohort);
  }
  return cohorts;
}
