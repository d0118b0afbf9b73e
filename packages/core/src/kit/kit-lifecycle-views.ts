import { optionError } from '../errors/option-error.js';
import type { MetricsInterval } from '../metrics/buckets.js';
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

/**
 * The views, each reading the records of the subscriptions begun before the later of its range's
 * end and now, then made pure (metrics/cohorts.ts, revenue-movements.ts, trial-funnel.ts).
 */
export function lifecycleViews(
  metrics: MetricsStore | undefined,
  offers: Offers,
  now: () => Date,
): LifecycleViews {
  const read = async (where: string, to: Date, clock: Date) => {
    const store = lifecyclesOf(metrics, where);
    const before = Math.max(to.getTime(), clock.getTime());
    return store.readLifecycles({ begunBefore: new Date(before + 1).toISOString() });
  };
  return {
    async cohorts(query) {
      const checked = checkViewQuery('kit.cohorts', query, ['month'] as const);
      const clock = now();
      // A cell runs to the month holding now: every record begun by then may be retained in it.
      const lifecycles = await read('kit.cohorts', checked.to, clock);
      return cohortsReport(checked, lifecycles, offers.list, clock);
    },
    async revenueMovements(query) {
      const checked = checkViewQuery<MetricsInterval>('kit.revenueMovements', query, VIEW_INTERVALS);
      const clock = now();
      return revenueMovementsReport(
        checked,
        await read('kit.revenueMovements', checked.to, clock),
        offers.list,
        clock,
      );
    },
    async trialFunnel(query) {
      const checked = checkViewQuery<MetricsInterval>('kit.trialFunnel', query, VIEW_INTERVALS);
      const clock = now();
      return trialFunnelReport(checked, await read('kit.trialFunnel', checked.to, clock), offers.list, clock);
    },
  };
}

function lifecyclesOf(metrics: MetricsStore | undefined, where: string): LifecycleStore {
  if (metrics !== undefined && isLifecycleStore(metrics)) return metrics;
  throw optionError(
    where,
    'store',
    'keeps no subscription lifecycles (or `metrics: false` was set): use memoryStore or @dcbkit/store-postgres, or add the LifecycleStore methods to yours (docs/store-authors.md).',
  );
}
