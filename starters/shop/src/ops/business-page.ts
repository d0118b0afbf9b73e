import { type DcbKit, isDcbError, type MetricsReport } from '@dcbkit/core';
import type { PageContext } from '../views.js';
import { type BusinessChart, businessCharts } from './business-charts.js';
import { businessCsv, businessCsvName } from './business-csv.js';
import { type BusinessForm, businessQueryFrom, businessSearch, INTERVALS } from './business-query.js';

/** What the Business page needs of the page's language. */
export type BusinessWords = Pick<PageContext, 't' | 'lang' | 'dir' | 'offerName'>;

export interface BusinessPage {
  form: BusinessForm;
  intervals: Array<{ value: string; label: string }>;
  offers: Array<{ value: string; label: string }>;
  /** What is wrong with the form, in words; the page then shows the form and no chart. */
  error: string | undefined;
  charts: BusinessChart[];
  /**
   * The charts as JSON for the page's `<script type="application/json">` (read by
   * public/business-charts.js): `<` escaped, so no value can close the script element.
   */
  chartData: string;
  csvHref: string;
}

/** Reads the metrics the form asks for; a query `kit.metrics` refuses is the form's error, not a failure. */
async function readMetrics(
  kit: DcbKit,
  fields: Readonly<Record<string, unknown>>,
): Promise<{ form: BusinessForm; report: MetricsReport | undefined; errorKey: string | undefined }> {
  const query = businessQueryFrom(fields, kit.now(), kit.offers.list);
  if (!query.ok) return { form: query.form, report: undefined, errorKey: query.error };
  try {
    return { form: query.form, report: await kit.metrics(query.metrics), errorKey: undefined };
  } catch (error) {
    // Too long a period, say: the operator changes the form.
    if (isDcbError(error, 'invalid_option'))
      return { form: query.form, report: undefined, errorKey: 'ops.business.error.refused' };
    throw error;
  }
}

/** GET /ops/business: the form, and the charts and their tables for the period it names. */
export async function businessPage(
  kit: DcbKit,
  fields: Readonly<Record<string, unknown>>,
  words: BusinessWords,
): Promise<BusinessPage> {
  const { t } = words;
  const { form, report, errorKey } = await readMetrics(kit, fields);
  const charts = report === undefined ? [] : businessCharts(report, form.offer, words);
  const data = { lang: words.lang, rtl: words.dir === 'rtl', charts };
  return {
    form,
    intervals: INTERVALS.map((value) => ({ value, label: t(`ops.business.interval.${value}`) })),
    offers: [
      { value: '', label: t('ops.business.allOffers') },
      ...kit.offers.list.map((offer) => ({ value: offer.offerUid, label: words.offerName(offer) })),
    ],
    error: errorKey === undefined ? undefined : t(errorKey),
    charts,
    chartData: JSON.stringify(data).replaceAll('<', '\\u003c'),
    csvHref: `/ops/business.csv?${businessSearch(form)}`,
  };
}

/** GET /ops/business.csv: the same rows as the page, or the form's error in words. */
export async function businessCsvDownload(
  kit: DcbKit,
  fields: Readonly<Record<string, unknown>>,
  words: Pick<PageContext, 't'>,
): Promise<{ ok: true; name: string; csv: string } | { ok: false; error: string }> {
  const { form, report, errorKey } = await readMetrics(kit, fields);
  if (report === undefined) return { ok: false, error: words.t(errorKey ?? 'ops.business.error.refused') };
  return { ok: true, name: businessCsvName(form), csv: businessCsv(report.rows, form.offer) };
}
