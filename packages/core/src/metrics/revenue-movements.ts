import type { OfferDefinition } from '../schemas/offer.js';
import type { Money } from '../schemas/primitives.js';
import { bucketIndexOf, bucketsOf, type MetricsInterval } from './buckets.js';
import { livePaidAt, subscribersOf } from './subscribers.js';
import type { SubscriptionLifecycle } from './subscription-lifecycle.js';

/** One bucket of one offer in one currency: how the recurring revenue per month moved. */
export interface RevenueMovementsRow {
  /** The bucket's first instant, ISO 8601 UTC. */
  readonly start: string;
  readonly offerUid: string;
  readonly productUid: string;
  /** Paid subscriptions that began in the bucket (a paid start or a trial's conversion), but for returning subscribers'. */
  readonly newSubscriptions: number;
  readonly newRevenue: Money;
  /** Returning subscribers' new paid subscriptions (a reactivation). */
  readonly reactivatedSubscriptions: number;
  readonly reactivatedRevenue: Money;
  /** Paid subscriptions that ended in the bucket, whatever the cause. */
  readonly churnedSubscriptions: number;
  readonly churnedRevenue: Money;
  /** new + reactivated - churned. */
  readonly netRevenue: Money;
  /** The monthly value of the paid subscriptions live as the bucket ended. */
  readonly recurringRevenue: Money;
  /** False while the bucket has not ended (by the kit's clock). */
  readonly complete: boolean;
}

export interface RevenueMovementsReport {
  readonly from: string;
  readonly to: string;
  readonly interval: MetricsInterval;
  readonly asOf: string;
  /** Bucket by bucket, and within one by offer (the partner's subscription offers in their order, then others), then currency. */
  readonly rows: RevenueMovementsRow[];
}

interface Series {
  readonly offerUid: string;
  readonly productUid: string;
  readonly currency: string;
}

interface Moves {
  newCount: number;
  newAmount: number;
  reactivatedCount: number;
  reactivatedAmount: number;
  churnedCount: number;
  churnedAmount: number;
}

/**
 * Recurring revenue per month and its movements, per bucket, offer and currency, from the lifecycle
 * records: a subscription adds its monthly value when its first charge is collected (new, or
 * reactivated for a returning subscriber) and takes it away when it ends (churned), so that each
 * bucket's recurring revenue is the previous one's plus its net movement. A free trial is worth
 * nothing until it converts. Pure.
 */
export function revenueMovementsReport(
  query: { from: Date; to: Date; interval: MetricsInterval },
  lifecycles: Iterable<SubscriptionLifecycle>,
  offers: Iterable<OfferDefinition>,
  now: Date,
): RevenueMovementsReport {
  const buckets = bucketsOf(query.from, query.to, query.interval);
  const ends = [...buckets.starts.slice(1), buckets.end].map((end) => end.getTime());
  const moves = new Map<string, Moves>();
  const live = new Map<string, number>();
  const found = new Map<string, Series>();
  const movesOf = (index: number, series: Series) => {
    const id = `${index}\n${seriesId(series)}`;
    const known = moves.get(id) ?? {
      newCount: 0,
      newAmount: 0,
      reactivatedCount: 0,
      reactivatedAmount: 0,
      churnedCount: 0,
      churnedAmount: 0,
    };
    moves.set(id, known);
    return known;
  };
  for (const { paid } of subscribersOf(lifecycles)) {
    for (const one of paid) {
      const { offerUid, productUid, currency, monthlyValue } = one.lifecycle;
      const series = { offerUid, productUid, currency };
      found.set(seriesId(series), series);
      const began = bucketIndexOf(dayOf(one.paidAt), buckets);
      if (began >= 0) {
        const move = movesOf(began, series);
        if (one.returning) {
          move.reactivatedCount++;
          move.reactivatedAmount += monthlyValue;
        } else {
          move.newCount++;
          move.newAmount += monthlyValue;
        }
      }
      const ended = one.endedAt === undefined ? -1 : bucketIndexOf(dayOf(one.endedAt), buckets);
      if (ended >= 0) {
        const move = movesOf(ended, series);
        move.churnedCount++;
        move.churnedAmount += monthlyValue;
      }
      for (const [index, end] of ends.entries()) {
        if (!livePaidAt(one, end)) continue;
        const id = `${index}\n${seriesId(series)}`;
        live.set(id, (live.get(id) ?? 0) + monthlyValue);
      }
    }
  }
  const rows: RevenueMovementsRow[] = [];
  const series = seriesOf(offers, found);
  for (const [index, start] of buckets.starts.entries()) {
    for (const one of series) {
      const id = `${index}\n${seriesId(one)}`;
      const move = moves.get(id);
      const money = (amount: number): Money => ({ amount, currency: one.currency });
      rows.push({
        start: start.toISOString(),
        offerUid: one.offerUid,
        productUid: one.productUid,
        newSubscriptions: move?.newCount ?? 0,
        newRevenue: money(move?.newAmount ?? 0),
        reactivatedSubscriptions: move?.reactivatedCount ?? 0,
        reactivatedRevenue: money(move?.reactivatedAmount ?? 0),
        churnedSubscriptions: move?.churnedCount ?? 0,
        churnedRevenue: money(move?.churnedAmount ?? 0),
        netRevenue: money(
          (move?.newAmount ?? 0) + (move?.reactivatedAmount ?? 0) - (move?.churnedAmount ?? 0),
        ),
        recurringRevenue: money(live.get(id) ?? 0),
        complete: (ends[index] as number) <= now.getTime(),
      });
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

/**
 * The recurring revenue per month at `at`: the monthly value of the paid subscriptions live then
 * (paid before `at`, not ended before it), per currency, in the order of the currencies' codes.
 * Several currencies never add up. The headline figure of the business view. Pure.
 */
export function recurringRevenueAt(lifecycles: Iterable<SubscriptionLifecycle>, at: Date): Money[] {
  const totals = new Map<string, number>();
  for (const { paid } of subscribersOf(lifecycles)) {
    for (const one of paid) {
      if (!livePaidAt(one, at.getTime())) continue;
      const { currency, monthlyValue } = one.lifecycle;
      totals.set(currency, (totals.get(currency) ?? 0) + monthlyValue);
    }
  }
  return [...totals.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, amount]) => ({ amount, currency }));
}

/** The partner's subscription offers in their order (in their price's currency), then any other offer or currency the records name. */
function seriesOf(offers: Iterable<OfferDefinition>, found: ReadonlyMap<string, Series>): Series[] {
  const series = new Map<string, Series>();
  for (const offer of offers) {
    if (offer.type !== 'SUBSCRIPTION') continue;
    const one = { offerUid: offer.offerUid, productUid: offer.productUid, currency: offer.price.currency };
    series.set(seriesId(one), one);
  }
  const others = [...found.values()]
    .filter((one) => !series.has(seriesId(one)))
    .sort((a, b) => (seriesId(a) < seriesId(b) ? -1 : 1));
  return [...series.values(), ...others];
}

const seriesId = (series: Series) => `${series.offerUid}\n${series.productUid}\n${series.currency}`;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
