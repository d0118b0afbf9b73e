import { type DcbKit, isDcbError } from '@dcbkit/core';
import type { PageContext } from '../views.js';
import { BUCKETS_PER_PAGE, type BucketPage, bucketPage } from './business-bucket-pages.js';
import type { BusinessChart } from './business-charts.js';
import { businessCsvName } from './business-csv.js';
import { readHeadline, type ShownHeadline } from './business-headline-read.js';
import { offerFilterChoices } from './business-offer-labels.js';
import { type BusinessForm, businessQueryFrom, businessSearch, INTERVALS } from './business-query.js';
import type { BusinessView } from './business-view.js';
import { BUSINESS_VIEWS } from './business-views.js';

/** What the Business page needs of the page's language. */
export type BusinessWords = Pick<PageContext, 't' | 'lang' | 'dir' | 'offerName'>;

/** One view as the page shows it: its heading, its charts with their tables, its CSV link. */
export interface ShownView {
  id: string;
  title: string;
  charts: BusinessChart[];
  csvHref: string;
}

/** Where this page sits among the pages of the period's buckets, in words, with its neighbours. */
export interface ShownPaging {
  summary: string;
  /** The page of the buckets before these; undefined on the earliest. */
  earlierHref: string | undefined;
  /** The page of the buckets after these; undefined on the most recent. */
  laterHref: string | undefined;
}

export interface BusinessPage {
  form: BusinessForm;
  /** The most buckets a page shows, in the page's digits: the intro says it. */
  bucketsPerPage: string;
  intervals: Array<{ value: string; label: string }>;
  offers: Array<{ value: string; label: string }>;
  /** What is wrong with the form, in words; the page then shows the form and no view. */
  error: string | undefined;
  /** The headline figures of the whole period, whatever the page of buckets; undefined with an error. */
  headline: ShownHeadline | undefined;
  views: ShownView[];
  /** Undefined when the period fits one page. */
  paging: ShownPaging | undefined;
  /**
   * The charts of every view as JSON for the page's `<script type="application/json">` (read by
   * public/business-charts.js): `<` escaped, so no value can close the script element.
   */
  chartData: string;
}

/** A view's answer, or the form's error when `kit` refuses the query (too long a period, say). */
async function unlessRefused<T>(read: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    if (isDcbError(error, 'invalid_option')) return { ok: false };
    throw error;
  }
}

function pagingOf(form: BusinessForm, shown: BucketPage, words: BusinessWords): ShownPaging | undefined {
  if (shown.pages === 1) return undefined;
  const number = new Intl.NumberFormat(words.lang);
  const href = (page: number) => `/ops/business?${businessSearch({ ...form, page })}`;
  return {
    summary: words.t('ops.business.paging.summary', {
      first: number.format(shown.firstShown),
      last: number.format(shown.lastShown),
      buckets: number.format(shown.buckets),
      max: number.format(BUCKETS_PER_PAGE),
    }),
    earlierHref: shown.page < shown.pages ? href(shown.page + 1) : undefined,
    laterHref: shown.page > 1 ? href(shown.page - 1) : undefined,
  };
}

/**
 * GET /ops/business: the form, and every view's charts and tables for one page of the period's
 * buckets (business-bucket-pages.ts); each view's CSV holds the whole period.
 */
export async function businessPage(
  kit: DcbKit,
  fields: Readonly<Record<string, unknown>>,
  words: BusinessWords,
): Promise<BusinessPage> {
  const { t } = words;
  const query = businessQueryFrom(fields, kit.now(), kit.offers.list);
  const page = {
    form: query.form,
    bucketsPerPage: new Intl.NumberFormat(words.lang).format(BUCKETS_PER_PAGE),
    intervals: INTERVALS.map((value) => ({ value, label: t(`ops.business.interval.${value}`) })),
    offers: [
      { value: '', label: t('ops.business.allOffers') },
      ...offerFilterChoices(kit.offers.list, words),
    ],
  };
  const empty = { headline: undefined, views: [], paging: undefined, chartData: '' };
  if (!query.ok) return { ...page, ...empty, error: t(query.error) };
  const { form } = query;
  const shown = bucketPage(query.metrics, form.page);
  const viewQuery = { from: shown.from, to: shown.to, interval: form.interval, offer: form.offer };
  const read = await unlessRefused(() =>
    Promise.all([
      // The figures read the whole period, not the page's buckets: a page is a slice of it.
      readHeadline(kit, { ...query.metrics, offer: form.offer }, words),
      ...BUSINESS_VIEWS.map((view) => view.charts(kit, viewQuery, words)),
    ]),
  );
  if (!read.ok) return { ...page, ...empty, error: t('ops.business.error.refused') };
  const [headline, ...charts] = read.value;
  const csvSearch = businessSearch({ ...form, page: undefined });
  const views = BUSINESS_VIEWS.map((view, index) => ({
    id: view.id,
    title: t(view.titleKey),
    charts: charts[index] as BusinessChart[],
    csvHref: `/ops/business/${view.id}.csv?${csvSearch}`,
  }));
  const data = { lang: words.lang, rtl: words.dir === 'rtl', charts: views.flatMap((view) => view.charts) };
  return {
    ...page,
    error: undefined,
    headline,
    views,
    paging: pagingOf(form, shown, words),
    chartData: JSON.stringify(data).replaceAll('<', '\\u003c'),
  };
}

/** GET /ops/business/<view>.csv: the view's rows over the whole period, or the form's error in words. */
export async function businessCsvDownload(
  kit: DcbKit,
  view: BusinessView,
  fields: Readonly<Record<string, unknown>>,
  words: Pick<PageContext, 't'>,
): Promise<{ ok: true; name: string; csv: string } | { ok: false; error: string }> {
  const query = businessQueryFrom(fields, kit.now(), kit.offers.list);
  if (!query.ok) return { ok: false, error: words.t(query.error) };
  const { form } = query;
  const csv = await unlessRefused(() => view.csv(kit, { ...query.metrics, offer: form.offer }));
  if (!csv.ok) return { ok: false, error: words.t('ops.business.error.refused') };
  return { ok: true, name: businessCsvName(view.id, form), csv: csv.value };
}
