import type {
  CohortCount,
  LifecycleDaysQuery,
  RevenueMoves,
  TrialOutcomeDay,
} from '../metrics/lifecycle-counts.js';
import type { SubscriptionLifecycle } from '../metrics/subscription-lifecycle.js';

/**
 * The subscriptions' lifecycle records (SubscriptionLifecycle): one per subscription, kept for
 * years beside the daily totals, for the views that follow each subscriber and each subscription
 * (cohorts, recurring revenue movements and reactivations, the trial funnel). Optional in the
 * store contract: the kit writes them when the store keeps metrics and has these methods, and
 * `runLifecycleConformance` from `@dcbkit/core/store` checks them. The reads are totals, each
 * defined by a pure function of the records (cohortCountsOf, revenueMovesOf, trialOutcomesOf), so
 * that a SQL store answers each with one GROUP BY.
 */
export interface LifecycleStore {
  /**
   * Merges each record into the one held for its subscription, as mergeLifecycles does (each time
   * the earliest an event told, a read's only when no event told it; the end's cause with its
   * time): duplicates and any order of calls give the same records, on several instances at once.
   * All or nothing: rejects, merging none of them, when the write fails.
   */
  recordLifecycles(lifecycles: readonly SubscriptionLifecycle[]): Promise<void>;
  /** cohortCountsOf the records, for the cohorts of the query's months (`YYYY-MM-01`). */
  readCohortCounts(query: LifecycleDaysQuery): Promise<CohortCount[]>;
  /** revenueMovesOf the records, for the query's days. */
  readRevenueMoves(query: LifecycleDaysQuery): Promise<RevenueMoves>;
  /** trialOutcomesOf the records, for the trials begun on the query's days. */
  readTrialOutcomes(query: LifecycleDaysQuery): Promise<TrialOutcomeDay[]>;
}

const METHODS = ['recordLifecycles', 'readCohortCounts', 'readRevenueMoves', 'readTrialOutcomes'] as const;

/** True when the store keeps lifecycle records (it has every LifecycleStore method). */
export function isLifecycleStore<S extends object>(store: S): store is S & LifecycleStore {
  const candidate = store as Partial<Record<(typeof METHODS)[number], unknown>>;
  return METHODS.every((method) => typeof candidate[method] === 'function');
}
