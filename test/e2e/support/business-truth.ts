import { type FunnelCounted, funnelTruth } from '../../metrics/funnel-truth.js';
import { type LifecycleTruth, lifecycleTruth } from '../../metrics/lifecycle-truth.js';
import { MONTHS, PLANTED_UNTIL, type PlantedWorld } from '../../metrics/planted-world.js';
import { type Figures, sandboxFigures } from '../../metrics/sandbox-figures.js';
import {
  bucketStarts,
  type Counted,
  nextBucket,
  sandboxTruth,
  type TruthBuckets,
  withoutEmpty,
} from '../../metrics/sandbox-truth.js';

/** The period the walk asks the Business page for first: the planted months, by month. */
export const WALKED: TruthBuckets = { from: MONTHS[0] as string, to: PLANTED_UNTIL, interval: 'month' };

/**
 * Everything the Business page shows for the walked period, worked out from the sandbox's own
 * records alone (never from the kit): each view's oracle, keyed `<bucket start>|<offerUid>`
 * (revenue movements `<bucket start>|<offerUid>|<currency>`, cohorts by month).
 */
export interface BusinessTruth {
  /** What the page was asked: the form's first day, the day after its last, the interval. */
  query: TruthBuckets;
  /** The buckets' starts, as the page's tables list them (the first holds the form's first day). */
  buckets: string[];
  /** The cohorts' months: by month whatever the interval, from the one holding the first day. */
  cohortMonths: string[];
  /** kit.metrics' rows (sandbox-truth.ts), empty rows left out. */
  counted: Map<string, Counted>;
  /** The checkouts the shop's routes started (funnel-truth.ts), empty rows left out. */
  checkouts: Map<string, FunnelCounted>;
  /** Trials, revenue movements and cohorts (lifecycle-truth.ts). */
  lifecycle: LifecycleTruth;
  /** The sandbox's subscription offers, in its config's order, with their price's currency. */
  subscriptionOffers: Array<{ offerUid: string; currency: string }>;
  /**
   * The headline figures of one offer ('') or all, over `period` beside `previous`: by default
   * the whole buckets asked beside as many before, as the kit takes them.
   */
  figures(offerUid: string, period?: Period, previous?: Period): Promise<Figures>;
}

/** A period of the headline figures: from its first instant to the next after it (ISO 8601). */
export interface Period {
  readonly from: string;
  readonly to: string;
}

/** The whole buckets of `query`, and as many just before them: the headline figures' two periods. */
function periodsOf(query: TruthBuckets, buckets: readonly string[]): { period: Period; previous: Period } {
  const first = new Date(buckets[0] as string);
  const count = buckets.length;
  const end = nextBucket(buckets.at(-1) as string, query.interval);
  const before =
    query.interval === 'month'
      ? new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() - count, 1))
      : new Date(first.getTime() - count * (query.interval === 'week' ? 7 : 1) * 86_400_000);
  return {
    period: { from: first.toISOString(), to: end },
    previous: { from: before.toISOString(), to: first.toISOString() },
  };
}

export async function businessTruth(world: PlantedWorld, query = WALKED): Promise<BusinessTruth> {
  const { sandbox } = world;
  const buckets = bucketStarts(query);
  const periods = periodsOf(query, buckets);
  return {
    query,
    buckets,
    cohortMonths: bucketStarts({ ...query, interval: 'month' }),
    // Whole buckets, as the kit reads them: a week holding the form's first day begins before it.
    counted: withoutEmpty(await sandboxTruth(sandbox, { ...query, ...periods.period }, world.spent)),
    checkouts: await funnelTruth(sandbox, { ...query, ...periods.period }, world.routed),
    lifecycle: await lifecycleTruth(sandbox, query.from, new Date(periods.period.to)),
    subscriptionOffers: sandbox.config.offers
      .filter((offer) => offer.type === 'SUBSCRIPTION')
      .map((offer) => ({ offerUid: offer.offerUid, currency: offer.price.currency })),
    figures: (offerUid, period = periods.period, previous = periods.previous) =>
      sandboxFigures(sandbox, period, previous, {
        routed: world.routed,
        ...(offerUid === '' ? {} : { offerUid }),
      }),
  };
}

/** Whether a truth key (`<bucket>|<offerUid>[|<currency>]`) is of `bucket` and of the chosen offer ('' for all). */
function keyOf(key: string, bucket: string, offerUid: string, currency?: string): boolean {
  const [start, offer, money] = key.split('|');
  return (
    start === bucket &&
    (offerUid === '' || offer === offerUid) &&
    (currency === undefined || money === currency)
  );
}

/** The sum of `pick` over a truth's rows of the bucket starting at `bucket`, of the chosen offer. */
export function bucketSum<Row>(
  truth: ReadonlyMap<string, Row>,
  bucket: string,
  offerUid: string,
  pick: (row: Row) => number,
  currency?: string,
): number {
  let sum = 0;
  for (const [key, row] of truth) if (keyOf(key, bucket, offerUid, currency)) sum += pick(row);
  return sum;
}
