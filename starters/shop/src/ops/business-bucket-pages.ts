import type { Interval } from './business-query.js';

/**
 * The most buckets one page of the Business page draws. A daily view over years is paged, not
 * refused: each page's charts ask `kit.metrics` for their own buckets only, so the page's size
 * stays bounded (83 KB in English for 92 days of the headline figures and today's five charts with
 * their tables, under the 300 KB that `routes/business.test.ts` holds it to), whatever the period.
 * Only the headline figures read the whole period (business-headline-read.ts): a daily total per
 * offer and day, a few thousand rows for years. 92 days is a quarter.
 */
export const BUCKETS_PER_PAGE = 92;

const DAY_MS = 86_400_000;

/**
 * The start of the bucket holding `at`, as `kit.metrics` buckets (UTC; weeks start on Monday).
 * Core's own bucket helpers are not exported, and the rule is the docs' (docs/operations.md):
 * a day, the Monday of the week, the first of the month, at 00:00 UTC.
 */
function bucketStartOf(at: Date, interval: Interval): Date {
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  if (interval === 'day') return new Date(day);
  if (interval === 'month') return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
  return new Date(day - sinceMonday * DAY_MS);
}

/** The start of the `n`-th bucket after the one starting at `first`. */
function bucketStartAfter(first: Date, n: number, interval: Interval): Date {
  if (interval === 'month') return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + n, 1));
  return new Date(first.getTime() + n * (interval === 'week' ? 7 : 1) * DAY_MS);
}

/** How many buckets `kit.metrics` makes from `from` to `to` (exclusive): at least one. */
export function bucketCount(from: Date, to: Date, interval: Interval): number {
  const first = bucketStartOf(from, interval);
  const last = bucketStartOf(new Date(to.getTime() - 1), interval);
  if (interval === 'month') {
    const months =
      (last.getUTCFullYear() - first.getUTCFullYear()) * 12 + last.getUTCMonth() - first.getUTCMonth();
    return Math.max(1, months + 1);
  }
  return Math.max(
    1,
    Math.round((last.getTime() - first.getTime()) / DAY_MS / (interval === 'week' ? 7 : 1)) + 1,
  );
}

/** One page of a period's buckets, and where it sits among the pages. */
export interface BucketPage {
  /** 1 is the most recent page: an operator opens the page to see the latest buckets first. */
  page: number;
  pages: number;
  /** The buckets of the whole period, and the first and last shown (1-based, in time order). */
  buckets: number;
  firstShown: number;
  lastShown: number;
  /** The query for this page's buckets alone. */
  from: Date;
  to: Date;
}

/**
 * The `page`-th page of the period's buckets, counted from the most recent (a page past the last
 * is the last, the earliest). The first and last pages keep the form's own first and last days,
 * so a page never reads beyond the period asked for.
 */
export function bucketPage(period: { from: Date; to: Date; interval: Interval }, page: number): BucketPage {
  const { from, to, interval } = period;
  const buckets = bucketCount(from, to, interval);
  const pages = Math.ceil(buckets / BUCKETS_PER_PAGE);
  const shown = Math.min(Math.max(1, Math.trunc(page)), pages);
  const endIndex = buckets - (shown - 1) * BUCKETS_PER_PAGE;
  const startIndex = Math.max(0, endIndex - BUCKETS_PER_PAGE);
  const first = bucketStartOf(from, interval);
  return {
    page: shown,
    pages,
    buckets,
    firstShown: startIndex + 1,
    lastShown: endIndex,
    from: startIndex === 0 ? from : bucketStartAfter(first, startIndex, interval),
    to: endIndex === buckets ? to : bucketStartAfter(first, endIndex, interval),
  };
}
