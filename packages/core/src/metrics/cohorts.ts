import type { OfferDefinition } from '../schemas/offer.js';
import { bucketIndexOf, bucketsOf, nextBucketStart } from './buckets.js';
import type { CohortCount } from './lifecycle-counts.js';
import { type OfferSeries, offerSeriesId, offerSeriesOf } from './offer-series.js';

/** One month's end of a cohort: how many of its subscribers held a live paid subscription then. */
export interface CohortCell {
  /** The end of the month (the next month's first instant), ISO 8601 UTC. */
  readonly end: string;
  readonly subscribers: number;
  /** False while the month has not ended (by the kit's clock): the number can still change. */
  readonly complete: boolean;
}

/** The subscribers whose first paid charge fell in one month, for the offer of that charge. */
export interface CohortRow {
  /** The cohort's month: its first instant, ISO 8601 UTC. */
  readonly start: string;
  readonly offerUid: string;
  readonly productUid: string;
  readonly size: number;
  /**
   * `retained[k]`: the cohort's subscribers with a live paid subscription of the product at the end
   * of the k-th month after the cohort's (`retained[0]`: at the end of the cohort's own month), up
   * to the month holding the kit's clock.
   */
  readonly retained: readonly CohortCell[];
}

export interface CohortsReport {
  /** The first cohort's month. */
  readonly from: string;
  /** The end of the last cohort's month. */
  readonly to: string;
  readonly interval: 'month';
  /** The kit's clock when the report was made: cells ending after it are incomplete. */
  readonly asOf: string;
  /** Cohort by cohort, and within one by offer (the partner's subscription offers in their order, then others). */
  readonly rows: CohortRow[];
}

type Series = OfferSeries;

/**
 * Subscription retention by monthly cohort, from the store's cohort counts (cohortCountsOf). A
 * subscriber is an account's subscriptions of one product; their cohort is the month of their first
 * paid charge (a paid start or a trial's conversion), with the offer of that subscription, and they
 * stay in it when they come back with a new subscription after the first ended (RevenueCat's rule).
 * A cell counts the cohort's paid subscriptions live at the month's end: a subscriber holds one at a
 * time (the partner routes keep it), so these are its subscribers. Pure.
 */
export function cohortsReport(
  query: { from: Date; to: Date },
  counts: readonly CohortCount[],
  offers: Iterable<OfferDefinition>,
  now: Date,
): CohortsReport {
  const buckets = bucketsOf(query.from, query.to, 'month');
  // The months a cell may close: from the first cohort's through the month holding now.
  const months: string[] = [];
  const ends: number[] = [];
  for (let start = buckets.starts[0] as Date; start.getTime() <= now.getTime(); ) {
    months.push(start.toISOString().slice(0, 10));
    start = nextBucketStart(start, 'month');
    ends.push(start.getTime());
  }
  const cohorts = new Map<string, { size: number; retained: number[] }>();
  const found = new Map<string, Series>();
  for (const count of counts) {
    const index = bucketIndexOf(count.cohortMonth, buckets);
    if (index < 0) continue;
    const series = { offerUid: count.offerUid, productUid: count.productUid };
    found.set(offerSeriesId(series), series);
    const id = `${index}\n${offerSeriesId(series)}`;
    const cohort = cohorts.get(id) ?? { size: 0, retained: [] };
    cohort.size += count.firsts;
    for (let k = index; k < months.length; k++) {
      const month = months[k] as string;
      // Live at the month's end: paid by then, not ended before the next month began.
      if (count.paidMonth > month || (count.endMonth !== null && count.endMonth <= month)) continue;
      cohort.retained[k - index] = (cohort.retained[k - index] ?? 0) + count.subscriptions;
    }
    cohorts.set(id, cohort);
  }
  const rows: CohortRow[] = [];
  const series = offerSeriesOf(offers, found, (offer) => offer.type === 'SUBSCRIPTION');
  for (const [index, start] of buckets.starts.entries()) {
    for (const one of series) {
      const cohort = cohorts.get(`${index}\n${offerSeriesId(one)}`);
      const retained: CohortCell[] = [];
      for (let k = index; k < ends.length; k++) {
        const end = ends[k] as number;
        retained.push({
          end: new Date(end).toISOString(),
          subscribers: cohort?.retained[k - index] ?? 0,
          complete: end <= now.getTime(),
        });
      }
      rows.push({ start: start.toISOString(), ...one, size: cohort?.size ?? 0, retained });
    }
  }
  return {
    from: (buckets.starts[0] as Date).toISOString(),
    to: buckets.end.toISOString(),
    interval: 'month',
    asOf: now.toISOString(),
    rows,
  };
}
