import type { DcbKit } from '@dcbkit/core';
import type { Language, Translate } from '../i18n.js';
import type { BusinessChart } from './business-charts.js';
import type { Interval } from './business-query.js';

/** What a view is asked for: a period (one page of it for the charts, all of it for the CSV), one offer or all. */
export interface BusinessViewQuery {
  from: Date;
  /** The end, exclusive: the next midnight UTC after the last day. */
  to: Date;
  interval: Interval;
  /** An offer's uid, or '' for every offer. */
  offer: string;
}

/** The page's language, as a view words its charts. */
export interface BusinessViewWords {
  t: Translate;
  lang: Language;
}

/**
 * One view of the Business page: a report of the kit drawn as charts, each with its table, and
 * the same report as a CSV download (`/ops/business/<id>.csv`). The page draws every view of
 * `BUSINESS_VIEWS` (business-views.ts) in order: a new report of the kit (a checkout funnel,
 * cohorts, movements) is one more view there, and the form, the paging, the languages and the
 * CSV route come with it.
 */
export interface BusinessView {
  /** The view's section id and its CSV's name. Its charts' ids must be unique across views. */
  id: string;
  /** The message key of the view's heading (locales/*.json). */
  titleKey: string;
  /** The message key of a sentence under the heading, when the view needs one (what it counts, how). */
  noteKey?: string;
  /** The view's charts over the query's buckets, in the page's language. */
  charts(kit: DcbKit, query: BusinessViewQuery, words: BusinessViewWords): Promise<BusinessChart[]>;
  /** The view's rows over the query's buckets as CSV (RFC 4180), with a header line. */
  csv(kit: DcbKit, query: BusinessViewQuery): Promise<string>;
}
