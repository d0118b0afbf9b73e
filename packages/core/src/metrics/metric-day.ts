import type { MetricKind } from './metric-entry.js';

/** The facts of one kind, offer, currency and detail on one UTC day, added up. */
export interface MetricDay {
  /** `YYYY-MM-DD`, UTC. */
  readonly day: string;
  readonly offerUid: string;
  readonly productUid: string;
  readonly kind: MetricKind;
  readonly currency: string;
  /** The facts' `detail` (a checkout's code); absent for facts without one. Totals of two details stay apart. */
  readonly detail?: string;
  /** The facts' counts, summed. */
  readonly count: number;
  /** Money collected, minor units of `currency`. */
  readonly amount: number;
  /** The change in live subscribers. */
  readonly live: number;
}

/** Whole UTC days: from `from` (included) to `to` (excluded), each `YYYY-MM-DD`. */
export interface MetricDaysQuery {
  readonly from: string;
  readonly to: string;
}

export interface MetricDays {
  /** The days of the query that have a fact, in any order. */
  readonly days: MetricDay[];
  /** Per offer: the live subscribers as `from` began (every `live` before it, summed); offers at 0 may be left out. */
  readonly liveBefore: ReadonlyArray<{
    readonly offerUid: string;
    readonly productUid: string;
    readonly live: number;
  }>;
}

/** The UTC day (`YYYY-MM-DD`) of an ISO 8601 time. */
export function utcDayOf(isoTime: string): string {
  // The service's times are UTC (`…Z`): their first ten characters are the day, with no parse.
  if (isoTime.length >= 20 && isoTime.charCodeAt(10) === 84 && isoTime.endsWith('Z'))
    return isoTime.slice(0, 10);
  return new Date(isoTime).toISOString().slice(0, 10);
}
