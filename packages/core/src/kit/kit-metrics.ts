import { optionError } from '../errors/option-error.js';
import { type Buckets, bucketsBefore, bucketsOf } from '../metrics/buckets.js';
import {
  type CheckoutFunnelReport,
  type CheckoutFunnelRow,
  checkoutFunnel,
} from '../metrics/checkout-funnel.js';
import { type CheckoutOutcomes, metricsTotals, type PeriodNumbers } from '../metrics/headline-figures.js';
import type { RevenueMoves, TrialOutcomeDay } from '../metrics/lifecycle-counts.js';
import type { MetricDays } from '../metrics/metric-day.js';
import { type CheckedMetricsQuery, checkMetricsQuery, type MetricsQuery } from '../metrics/metrics-query.js';
import { type MetricsReport, metricsReport } from '../metrics/metrics-report.js';
import { recurringRevenueOf } from '../metrics/revenue-movements.js';
import type { Offers } from '../offers/define-offers.js';
import { isLifecycleStore, type LifecycleStore } from '../store/lifecycle-store.js';
import type { MetricsStore } from '../store/metrics-store.js';

/**
 * `kit.metrics`: the store's daily totals of the buckets' days, made into the report's rows, and
 * of as many buckets before them, for the headline figures' previous period.
 */
export async function metricsOf(
  store: MetricsStore | undefined,
  offers: Offers,
  query: MetricsQuery,
): Promise<MetricsReport> {
  const checked = checkMetricsQuery(query);
  const kept = metricsStoreOf(store, 'kit.metrics');
  const { interval, offerUid } = checked;
  const buckets = bucketsOf(checked.from, checked.to, interval);
  const before = bucketsBefore(buckets, interval);
  const [days, daysBefore] = await Promise.all([readDays(kept, buckets), readDays(kept, before)]);
  const only = <T extends { offerUid: string }>(list: readonly T[]) =>
    offerUid === undefined ? [...list] : list.filter((one) => one.offerUid === offerUid);
  const periodOf = (from: Date, to: Date, stored: MetricDays) => ({
    rows: only(metricsReport({ from, to, interval }, stored, offers.list).rows),
    liveAtStart: only(stored.liveBefore).reduce((sum, offer) => sum + offer.live, 0),
    checkouts: checkoutOutcomes(only(checkoutFunnel({ from, to, interval }, stored.days, offers.list).rows)),
  });
  const lifecycles = isLifecycleStore(kept) ? kept : undefined;
  const [lifecycle, lifecycleBefore] = await Promise.all([
    lifecycleNumbers(lifecycles, buckets, only),
    lifecycleNumbers(lifecycles, before, only),
  ]);
  const current = {
    ...periodOf(checked.from, checked.to, days),
    ...lifecycle,
  } satisfies PeriodNumbers;
  const previous = { ...periodOf(before.starts[0] as Date, before.end, daysBefore), ...lifecycleBefore };
  return {
    from: (buckets.starts[0] as Date).toISOString(),
    to: buckets.end.toISOString(),
    interval,
    rows: current.rows,
    totals: metricsTotals(current, previous, only(offers.list)),
  };
}

type Only = <T extends { offerUid: string }>(list: readonly T[]) => T[];

/**
 * What the subscriptions' lifecycles tell of a period, when the store keeps them: its trials'
 * outcomes so far, and the recurring revenue as it ended (the moves of no day: the value as the
 * day after the period began).
 */
async function lifecycleNumbers(
  store: LifecycleStore | undefined,
  buckets: Buckets,
  only: Only,
): Promise<Pick<PeriodNumbers, 'trials' | 'recurringRevenue'>> {
  if (store === undefined) return {};
  const [outcomes, moves] = await Promise.all([
    store.readTrialOutcomes({ from: buckets.startDays[0] as string, to: buckets.endDay }),
    store.readRevenueMoves({ from: buckets.endDay, to: buckets.endDay }),
  ]);
  return { trials: trialsOf(only(outcomes)), recurringRevenue: recurringRevenueOf(onlyMoves(moves, only)) };
}

function trialsOf(outcomes: readonly TrialOutcomeDay[]): NonNullable<PeriodNumbers['trials']> {
  const trials = { started: 0, converted: 0, stillInTrial: 0 };
  for (const { outcome, trials: count } of outcomes) {
    trials.started += count;
    if (outcome === 'converted') trials.converted += count;
    if (outcome === 'inTrial') trials.stillInTrial += count;
  }
  return trials;
}

function onlyMoves(moves: RevenueMoves, only: Only): RevenueMoves {
  return { days: only(moves.days), liveBefore: only(moves.liveBefore) };
}

/** `kit.checkoutFunnel`: the same daily totals, made into the checkout funnel's rows. */
export async function checkoutFunnelOf(
  store: MetricsStore | undefined,
  offers: Offers,
  query: MetricsQuery,
): Promise<CheckoutFunnelReport> {
  const checked: CheckedMetricsQuery = checkMetricsQuery(query, 'kit.checkoutFunnel');
  const kept = metricsStoreOf(store, 'kit.checkoutFunnel');
  const { days } = await readDays(kept, bucketsOf(checked.from, checked.to, checked.interval));
  const report = checkoutFunnel(checked, days, offers.list);
  const { offerUid } = checked;
  return offerUid === undefined
    ? report
    : { ...report, rows: report.rows.filter((row) => row.offerUid === offerUid) };
}

/** The checkouts of a period's funnel rows, added up for the headline's conversion rate. */
function checkoutOutcomes(rows: readonly CheckoutFunnelRow[]): CheckoutOutcomes {
  const outcomes = { started: 0, succeeded: 0, pending: 0 };
  for (const row of rows) {
    outcomes.started += row.started;
    outcomes.succeeded += row.succeeded;
    outcomes.pending += row.pending;
  }
  return outcomes;
}

/** The store's metrics methods; an `invalid_option` naming `where` when it keeps none. */
function metricsStoreOf(store: MetricsStore | undefined, where: string): MetricsStore {
  if (store !== undefined) return store;
  throw optionError(
    where,
    'store',
    'keeps no metrics (or `metrics: false` was set): use memoryStore or @dcbkit/store-postgres, or add the MetricsStore methods to yours (docs/store-authors.md).',
  );
}

function readDays(store: MetricsStore, buckets: Buckets): Promise<MetricDays> {
  return store.readMetricDays({ from: buckets.startDays[0] as string, to: buckets.endDay });
}
