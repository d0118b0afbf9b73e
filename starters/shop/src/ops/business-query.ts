import type { MetricsReport, OfferDefinition } from '@dcbkit/core';

export type Interval = MetricsReport['interval'];
export const INTERVALS: readonly Interval[] = ['day', 'week', 'month'];

/** The default period: the last 90 days, today included. */
const DEFAULT_DAYS = 90;
const DAY_MS = 86_400_000;
/**
 * The longest period the page takes: what `kit.metrics` answers at once (ten years of days), so
 * that the CSV, which reads the whole period, answers whatever the page shows. The page itself
 * reads one page of buckets at a time (business-bucket-pages.ts).
 */
const MAX_PERIOD_DAYS = 3_660;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The Business page's form as the operator filled it (or its defaults): what the fields show again. */
export interface BusinessForm {
  /** YYYY-MM-DD, the first day counted. */
  from: string;
  /** YYYY-MM-DD, the last day counted (included). */
  to: string;
  interval: Interval;
  /** An offer's uid, or '' for every offer. */
  offer: string;
  /** Which page of the buckets (business-bucket-pages.ts): 1, the default, is the most recent. */
  page: number;
}

export type BusinessQuery =
  | { ok: true; form: BusinessForm; metrics: { from: Date; to: Date; interval: Interval } }
  /** `error`: the message key of what is wrong, for the page to say in its language. */
  | { ok: false; form: BusinessForm; error: string };

/** A YYYY-MM-DD string as midnight UTC, or undefined when it is not a real day (2030-02-30). */
export function parseDay(value: string): Date | undefined {
  const match = DATE_PATTERN.exec(value);
  if (!match) return undefined;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? date : undefined;
}

export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value.trim() : undefined);

/** The page field: a whole number from 1; anything else (a link edited by hand) is the first page. */
function pageOf(value: unknown): number {
  const page = Number(text(value));
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/**
 * The metrics query from the page's GET form: the days as the operator reads them (`to` included,
 * so the query ends at the next midnight UTC, the buckets' time), the interval, and one offer or
 * all. A field left empty takes its default; a field that cannot be read, or a period longer than
 * ten years, is an error the page shows with the form, never a failure.
 */
export function businessQueryFrom(
  fields: Readonly<Record<string, unknown>>,
  now: Date,
  offers: readonly OfferDefinition[],
): BusinessQuery {
  const today = dayOf(now);
  const defaultFrom = dayOf(new Date(Date.parse(today) - (DEFAULT_DAYS - 1) * DAY_MS));
  const intervalField = text(fields.interval) || 'week';
  const offerField = text(fields.offer) ?? '';
  const form: BusinessForm = {
    from: text(fields.from) || defaultFrom,
    to: text(fields.to) || today,
    interval: (INTERVALS as readonly string[]).includes(intervalField) ? (intervalField as Interval) : 'week',
    offer: offers.some((offer) => offer.offerUid === offerField) ? offerField : '',
    page: pageOf(fields.page),
  };
  const from = parseDay(form.from);
  const to = parseDay(form.to);
  if (from === undefined || to === undefined) return { ok: false, form, error: 'ops.business.error.date' };
  if (to < from) return { ok: false, form, error: 'ops.business.error.order' };
  if ((to.getTime() - from.getTime()) / DAY_MS + 1 > MAX_PERIOD_DAYS)
    return { ok: false, form, error: 'ops.business.error.refused' };
  if (form.interval !== intervalField) return { ok: false, form, error: 'ops.business.error.interval' };
  if (form.offer !== offerField) return { ok: false, form, error: 'ops.business.error.offer' };
  return { ok: true, form, metrics: { from, to: new Date(to.getTime() + DAY_MS), interval: form.interval } };
}

/**
 * The form's fields as a query string: the CSV link asks for the same period as the page (every
 * bucket of it, so without `page`), the page links for the same view on another page.
 */
export function businessSearch(form: Omit<BusinessForm, 'page'> & { page?: number }): string {
  const fields: Record<string, string> = { from: form.from, to: form.to, interval: form.interval };
  if (form.offer !== '') fields.offer = form.offer;
  if (form.page !== undefined && form.page !== 1) fields.page = String(form.page);
  return new URLSearchParams(fields).toString();
}
