import type { DcbKit } from '@dcbkit/core';
import { headlineFigures, type ShownFigure } from './business-headline.js';
import type { BusinessViewQuery, BusinessViewWords } from './business-view.js';

/** The top of the Business page: which days the figures cover, in words, and the figures. */
export interface ShownHeadline {
  intro: string;
  figures: ShownFigure[];
}

const DAY_MS = 86_400_000;

/**
 * `report.totals` of the whole period asked (every page of buckets, not the page shown), for one
 * offer or all. The kit narrows the figures itself (`offerUid`): a rate cannot be summed from
 * other offers' rates, so the page never filters them afterwards. The days said are the report's
 * own, whole buckets: a week or a month begins before the form's first day when it is cut by it.
 */
export async function readHeadline(
  kit: DcbKit,
  query: BusinessViewQuery,
  words: BusinessViewWords,
): Promise<ShownHeadline> {
  const { from, to, interval, offer } = query;
  const report = await kit.metrics({ from, to, interval, offerUid: offer === '' ? undefined : offer });
  // The buckets are UTC days: shown in UTC, so a day never slips to the one before.
  const day = new Intl.DateTimeFormat(words.lang, { dateStyle: 'medium', timeZone: 'UTC' });
  return {
    intro: words.t('ops.business.headline.intro', {
      from: day.format(new Date(report.from)),
      // The report's end is exclusive: the last day counted is the one before it.
      to: day.format(new Date(Date.parse(report.to) - DAY_MS)),
    }),
    figures: headlineFigures(report.totals, words),
  };
}
