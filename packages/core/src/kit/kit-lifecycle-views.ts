import { optionError } from '../errors/option-error.js';
import { bucketsOf, type MetricsInterval } from '../metrics/buckets.js';
import { type CohortsReport, cohortsReport } from '../metrics/cohorts.js';
import { type RevenueMovementsReport, revenueMovementsReport } from '../metrics/revenue-movements.js';
import { type TrialFunnelReport, trialFunnelReport } from '../metrics/trial-funnel.js';
import { checkViewQuery, type LifecycleViewQuery, VIEW_INTERVALS } from '../metrics/view-query.js';
import type { Offers } from '../offers/define-offers.js';
import { isLifecycleStore, type LifecycleStore } from '../store/lifecycle-store.js';
import type { MetricsStore } from '../store/metrics-store.js';

/** The business views made from each subscription's lifecycle, beside `kit.metrics`. */
export interface LifecycleViews {
  /**
   * Subscription retention by monthly cohort: per cohort (the month of a subscriber's first paid
   * charge, trial conversions included) and offer, its `size` and `retained[k]`, its subscribers
   * with a live paid subscription at the end of the k-th month after, each cell `complete` once
   * its month has ended. A returning subscriber stays in their first cohort. Needs a store that
   * keeps lifecycles (an `invalid_option` naming the store otherwise). docs/operations.md defines it.
   *
   * @example
   * const { rows } = await kit.cohorts({ from: new Date('2030-01-01'), to: new Date('2031-01-01'), interval: 'month' });
   */
  cohorts(query: LifecycleViewQuery<'month'>): Promise<CohortsReport>;
  /**
   * The recurring revenue per month and its movements, per bucket (default `day`), offer and
   * currency: new, reactivated (returning subscribers), churned and net, and the recurring revenue
   * as the bucket ended.
   *
   * @example
   * const { rows } = await kit.revenueMovements({ from, to, interval: 'month' });
   */
  revenueMovements(query: LifecycleViewQuery): Promise<RevenueMovementsReport>;
  /**
   * The free trials begun per bucket (default `day`) and offer, and what each became so far:
   * converted, still in trial, cancelled during the trial, failed to pay.
   *
   * @example
   * const { rows } = await kit.trialFunnel({ from, to, interval: 'week' });
   */
  trialFunnel(query: LifecycleViewQuery): Promise<TrialFunnelReport>;
}

/** The views: the store's totals of the buckets' days, made into each view's rows (metrics/cohorts.ts, revenue-movements.ts, trial-funnel.ts). */
export function lifecycleViews(
  metrics: MetricsStore | undefined,
  offers: Offers,
  now: () => Date,
): LifecycleViews {
  return {
    async cohorts(query) {
      const checked = checkViewQuery('kit.cohorts', query, ['month'] as const);
      const store = lifecyclesOf(metrics, 'kit.cohorts');
      const months = bucketsOf(checked.from, checked.to, 'month');
      const counts = await store.readCohortCounts({ from: months.startDays[0] as string, to: months.endDay });
      return cohortsReport(checked, counts, offers.list, now());
    },
    async revenueMovements(query) {
      const checked = checkViewQuery<MetricsInterval>('kit.revenueMovements', query, VIEW_INTERVALS);
      const store = lifecyclesOf(metrics, 'kit.revenueMovements');
      const moves = await store.readRevenueMoves(daysOf(checked));
      return revenueMovementsReport(checked, moves, offers.list, now());
    },
    async trialFunnel(query) {
      const checked = checkViewQuery<MetricsInterval>('kit.trialFunnel', query, VIEW_INTERVALS);
      const store = lifecyclesOf(metrics, 'kit.trialFunnel');
      const outcomes = await store.readTrialOutcomes(daysOf(checked));
      return trialFunnelReport(checked, outcomes, offers.list, now());
    },
  };
}

/** The days of a query's buckets. */
function daysOf(query: { from: Date; to: Date; interval: MetricsInterval }) {
  const buckets = bucketsOf(query.from, query.to, query.interval);
  return { from: buckets.startDays[0] as string, to: buckets.endDay };
}

function lifecyclesOf(metrics: MetricsStore | undefined, where: string): LifecycleStore {
  if (metrics !== undefined && isLifecycleStore(metrics)) return metrics;
  throw optionError(
    where,
    'store',
    'keeps no subscription lifecycles (or `metrics: false` was set): use memoryStore or @dcbkit/store-postgres, or add the LifecycleStore methods to yours (docs/store-authors.md).',
  );
}
