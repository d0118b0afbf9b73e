import type { OfferDefinition } from '../schemas/offer.js';
import { bucketIndexOf, bucketsOf, type MetricsInterval } from './buckets.js';
import type { TrialOutcome, TrialOutcomeDay } from './lifecycle-counts.js';
import { type OfferSeries, offerSeriesId, offerSeriesOf } from './offer-series.js';

/** The free trials that began in one bucket for one offer, and what became of each so far. */
export interface TrialFunnelRow {
  /** The bucket's first instant, ISO 8601 UTC. */
  readonly start: string;
  readonly offerUid: string;
  readonly productUid: string;
  /** Trials begun in the bucket: converted + inTrial + canceled + failedToPay. */
  readonly started: number;
  /** Their first charge was collected (on time or recovered in grace). */
  readonly converted: number;
  /** Neither converted nor ended yet: trialing, or in grace after their first charge failed. */
  readonly inTrial: number;
  /** Ended before any charge, cancelled (now, or at the trial's end) or revoked. */
  readonly canceled: number;
  /** Ended before any charge for want of payment: the first charge never collected (subscription.failed, or suspended after its grace). */
  readonly failedToPay: number;
}

export interface TrialFunnelReport {
  readonly from: string;
  readonly to: string;
  readonly interval: MetricsInterval;
  /** The kit's clock when the report was made: what a trial became is as of then. */
  readonly asOf: string;
  /** Bucket by bucket, and within one by offer (the partner's trial offers in their order, then others). */
  readonly rows: TrialFunnelRow[];
}

type Series = OfferSeries;

/**
 * The trial funnel, per bucket of the trials' start and offer, from the store's outcomes
 * (trialOutcomesOf): each trial counts once, in the bucket it began, with its outcome as of now. Pure.
 */
export function trialFunnelReport(
  query: { from: Date; to: Date; interval: MetricsInterval },
  outcomes: readonly TrialOutcomeDay[],
  offers: Iterable<OfferDefinition>,
  now: Date,
): TrialFunnelReport {
  const buckets = bucketsOf(query.from, query.to, query.interval);
  const counts = new Map<string, Record<TrialOutcome, number>>();
  const found = new Map<string, Series>();
  for (const day of outcomes) {
    const index = bucketIndexOf(day.day, buckets);
    if (index < 0) continue;
    const series = { offerUid: day.offerUid, productUid: day.productUid };
    found.set(offerSeriesId(series), series);
    const id = `${index}\n${offerSeriesId(series)}`;
    const count = counts.get(id) ?? { converted: 0, inTrial: 0, canceled: 0, failedToPay: 0 };
    count[day.outcome] += day.trials;
    counts.set(id, count);
  }
  const rows: TrialFunnelRow[] = [];
  const series = offerSeriesOf(
    offers,
    found,
    (offer) => offer.type === 'SUBSCRIPTION' && offer.trialDays > 0,
  );
  for (const [index, start] of buckets.starts.entries()) {
    for (const one of series) {
      const count = counts.get(`${index}\n${offerSeriesId(one)}`) ?? {
        converted: 0,
        inTrial: 0,
        canceled: 0,
        failedToPay: 0,
      };
      const started = count.converted + count.inTrial + count.canceled + count.failedToPay;
      rows.push({ start: start.toISOString(), ...one, started, ...count });
    }
  }
  return {
    from: (buckets.starts[0] as Date).toISOString(),
    to: buckets.end.toISOString(),
    interval: query.interval,
    asOf: now.toISOString(),
    rows,
  };
}
