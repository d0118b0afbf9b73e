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
  /** The view's note under its heading, when it has one. */
  note: string | undefined;
  /** Why the view has no charts, in words: this shop's store keeps none of its facts. */
  unavailable: string | undefined;
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

/** Whether the kit refused for want of a store keeping the view's facts (no metrics, no lifecycles). */
function notKeptByStore(error: unknown): boolean {
  return isDcbError(error, 'invalid_option') && error.details.option === 'store';
}

/**
 * A view's charts, or undefined when this shop's store keeps none of its facts: the page then
 * says so in that view's place, and the other views are still drawn.
 */
async function unlessNotKept<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (notKeptByStore(error)) return undefined;
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
      ...BUSINESS_VIEWS.map((view) => unlessNotKept(() => view.charts(kit, viewQuery, words))),
    ]),
  );
  if (!read.ok) return { ...page, ...empty, error: t('ops.business.error.refused') };
  const [headline, ...charts] = read.value;
  const csvSearch = businessSearch({ ...form, page: undefined });
  const views = BUSINESS_VIEWS.map((view, index): ShownView => {
    const shownCharts = charts[index] as BusinessChart[] | undefined;
    return {
      id: view.id,
      title: t(view.titleKey),
      charts: shownCharts ?? [],
      csvHref: `/ops/business/${view.id}.csv?${csvSearch}`,
      note: view.noteKey === undefined ? undefined : t(view.noteKey),
      unavailable:
        shownCharts === undefined ? t('ops.business.error.notKept', { view: t(view.titleKey) }) : undefined,
    };
  });
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
  const read = () => view.csv(kit, { ...query.metrics, offer: form.offer });
  const csv = await unlessRefused(() => unlessNotKept(read));
  if (!csv.ok) return { ok: false, error: words.t('ops.business.error.refused') };
  if (csv.value === undefined)
    return { ok: false, error: words.t('ops.business.error.notKept', { view: words.t(view.titleKey) }) };
  return { ok: true, name: businessCsvName(view.id, form), csv: csv.value };
}
