import type { OfferDefinition } from '../schemas/offer.js';
import { bucketIndexOf, bucketsOf, type MetricsInterval } from './buckets.js';
import { isCheckoutKind } from './checkout-funnel.js';
import type { MetricsTotals } from './headline-figures.js';
import type { MetricDay, MetricDays } from './metric-day.js';
import { METRICS_MEASURES, type ReportKind } from './metrics-measures.js';
import type { MetricsRow } from './metrics-row.js';

export type { MetricsRow } from './metrics-row.js';

export interface MetricsReport {
  /** The first bucket's start (the query's `from`, at its bucket's start). */
  readonly from: string;
  /** The last bucket's end. */
  readonly to: string;
  readonly interval: MetricsInterval;
  /** Bucket by bucket, and within one bucket by offer, then currency. */
  readonly rows: MetricsRow[];
  /** The headline figures of the whole period, each beside the period of the same length before it. */
  readonly totals: MetricsTotals;
}

type Counts = Record<ReportKind, number>;

interface Series {
  offerUid: string;
  productUid: string;
  currency: string;
}

/** Every kind of fact a row counts (METRICS_MEASURES says which number each fills), found once. */
const REPORT_KINDS: readonly ReportKind[] = METRICS_MEASURES.flatMap(({ counts }) =>
  counts === 'live' || counts === 'money' ? [] : [counts],
);

const ZERO_COUNTS = (): Counts => Object.fromEntries(REPORT_KINDS.map((kind) => [kind, 0])) as Counts;

/**
 * The rows of a metrics report from a store's daily totals: a row for every bucket of every offer
 * the partner sells (zeros included, so a chart has no gaps) and of any other offer with facts.
 * Pure; `days` must cover the buckets' days (`metricsDayRange`).
 */
export function metricsReport(
  query: { from: Date; to: Date; interval: MetricsInterval },
  stored: MetricDays,
  offers: Iterable<OfferDefinition>,
): Omit<MetricsReport, 'totals'> {
  const buckets = bucketsOf(query.from, query.to, query.interval);
  const days = stored.days.filter((day) => !isCheckoutKind(day.kind));
  const series = seriesOf(days, offers);
  const totals = new Map<string, { counts: Counts; amount: number; live: number }>();
  for (const day of days) {
    const bucket = bucketIndexOf(day.day, buckets);
    if (bucket < 0) continue;
    const id = `${bucket}\n${seriesId(day)}`;
    const total = totals.get(id) ?? { counts: ZERO_COUNTS(), amount: 0, live: 0 };
    total.counts[day.kind as ReportKind] += day.count;
    total.amount += day.amount;
    total.live += day.live;
    totals.set(id, total);
  }
  const live = new Map<string, number>();
  for (const before of stored.liveBefore) live.set(offerId(before), before.live);
  const rows: MetricsRow[] = [];
  for (const [index, start] of buckets.starts.entries()) {
    // Live subscribers move per offer, whatever the currency of what was collected.
    for (const one of series) {
      const total = totals.get(`${index}\n${seriesId(one)}`);
      live.set(offerId(one), (live.get(offerId(one)) ?? 0) + (total?.live ?? 0));
    }
    for (const one of series) {
      const total = totals.get(`${index}\n${seriesId(one)}`);
      rows.push(
        rowOf(start, one, total?.counts ?? ZERO_COUNTS(), total?.amount ?? 0, live.get(offerId(one)) ?? 0),
      );
    }
  }
  return {
    from: buckets.starts[0]?.toISOString() ?? query.from.toISOString(),
    to: buckets.end.toISOString(),
    interval: query.interval,
    rows,
  };
}

function rowOf(start: Date, series: Series, counts: Counts, amount: number, live: number): MetricsRow {
  return {
    start: start.toISOString(),
    offerUid: series.offerUid,
    productUid: series.productUid,
    activeSubscribers: live,
    trialsStarted: counts.trial_started,
    trialsConverted: counts.trial_converted,
    newSubscriptions: counts.new_subscription,
    renewalsCollected: counts.renewal_collected,
    renewalsFailed: counts.renewal_failed,
    graceRecovered: counts.grace_recovered,
    churned: {
      canceled: counts.churn_canceled,
      expired: counts.churn_expired,
      suspended: counts.churn_suspended,
      revoked: counts.churn_revoked,
    },
    unitsSold: counts.unit_sold,
    unitsSpent: counts.unit_spent,
    unlocksSold: counts.unlock_sold,
    collected: { amount, currency: series.currency },
  };
}

/** The partner's offers in their order, then any other offer or currency that has facts. */
function seriesOf(days: readonly MetricDay[], offers: Iterable<OfferDefinition>): Series[] {
  const found = new Map<string, Series>();
  for (const offer of offers) {
    const one = { offerUid: offer.offerUid, productUid: offer.productUid, currency: offer.price.currency };
    found.set(seriesId(one), one);
  }
  const others = new Map<string, Series>();
  for (const { offerUid, productUid, currency } of days) {
    const one = { offerUid, productUid, currency };
    if (!found.has(seriesId(one))) others.set(seriesId(one), one);
  }
  const extra = [...others.values()].sort((a, b) => seriesId(a).localeCompare(seriesId(b)));
  return [...found.values(), ...extra];
}

const seriesId = (series: Series) => `${series.offerUid}\n${series.productUid}\n${series.currency}`;
const offerId = (offer: { offerUid: string; productUid: string }) => `${offer.offerUid}\n${offer.productUid}`;
