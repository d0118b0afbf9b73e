import type { OfferDefinition } from '../schemas/offer.js';
import type { Money } from '../schemas/primitives.js';
import { bucketIndexOf, bucketsOf, type MetricsInterval } from './buckets.js';
import type { RevenueMoveDay, RevenueMoves } from './lifecycle-counts.js';

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

/** Per kind: [subscriptions, monthly value]. */
type Moves = Record<RevenueMoveDay['kind'], [number, number]>;

/**
 * Recurring revenue per month and its movements, per bucket, offer and currency, from the store's
 * moves (revenueMovesOf): a subscription adds its monthly value when its first charge is collected
 * (new, or reactivated for a returning subscriber) and takes it away when it ends (churned), so that
 * each bucket's recurring revenue is the previous one's plus its net movement, from what was live
 * as the first bucket began. A free trial is worth nothing until it converts. Pure.
 */
export function revenueMovementsReport(
  query: { from: Date; to: Date; interval: MetricsInterval },
  stored: RevenueMoves,
  offers: Iterable<OfferDefinition>,
  now: Date,
): RevenueMovementsReport {
  const buckets = bucketsOf(query.from, query.to, query.interval);
  const moves = new Map<string, Moves>();
  const found = new Map<string, Series>();
  for (const day of stored.days) {
    const index = bucketIndexOf(day.day, buckets);
    if (index < 0) continue;
    const series = { offerUid: day.offerUid, productUid: day.productUid, currency: day.currency };
    found.set(seriesId(series), series);
    const id = `${index}\n${seriesId(series)}`;
    const move = moves.get(id) ?? { new: [0, 0], reactivated: [0, 0], churned: [0, 0] };
    move[day.kind][0] += day.subscriptions;
    move[day.kind][1] += day.monthlyValue;
    moves.set(id, move);
  }
  const live = new Map<string, number>();
  for (const before of stored.liveBefore) {
    found.set(seriesId(before), {
      offerUid: before.offerUid,
      productUid: before.productUid,
      currency: before.currency,
    });
    live.set(seriesId(before), (live.get(seriesId(before)) ?? 0) + before.monthlyValue);
  }
  const rows: RevenueMovementsRow[] = [];
  const series = seriesOf(offers, found);
  const ends = [...buckets.starts.slice(1), buckets.end];
  for (const [index, start] of buckets.starts.entries()) {
    for (const one of series) {
      const move = moves.get(`${index}\n${seriesId(one)}`) ?? {
        new: [0, 0],
        reactivated: [0, 0],
        churned: [0, 0],
      };
      const net = move.new[1] + move.reactivated[1] - move.churned[1];
      const recurring = (live.get(seriesId(one)) ?? 0) + net;
      live.set(seriesId(one), recurring);
      const money = (amount: number): Money => ({ amount, currency: one.currency });
      rows.push({
        start: start.toISOString(),
        offerUid: one.offerUid,
        productUid: one.productUid,
        newSubscriptions: move.new[0],
        newRevenue: money(move.new[1]),
        reactivatedSubscriptions: move.reactivated[0],
        reactivatedRevenue: money(move.reactivated[1]),
        churnedSubscriptions: move.churned[0],
        churnedRevenue: money(move.churned[1]),
        netRevenue: money(net),
        recurringRevenue: money(recurring),
        complete: (ends[index] as Date).getTime() <= now.getTime(),
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
 * The recurring revenue per month at the end of the moves' days: the monthly value of the paid
 * subscriptions live then, per currency (in the order of their codes; several currencies never add
 * up). The headline figure of the business view: with the moves of no day
 * (`store.readRevenueMoves({ from: day, to: day })`), the recurring revenue as that day began. Pure.
 */
export function recurringRevenueOf(moves: RevenueMoves): Money[] {
  const totals = new Map<string, number>();
  const add = (currency: string, amount: number) =>
    totals.set(currency, (totals.get(currency) ?? 0) + amount);
  for (const before of moves.liveBefore) add(before.currency, before.monthlyValue);
  for (const day of moves.days)
    add(day.currency, day.kind === 'churned' ? -day.monthlyValue : day.monthlyValue);
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
