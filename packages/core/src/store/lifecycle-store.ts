import type { SubscriptionLifecycle } from '../metrics/subscription-lifecycle.js';

/** Which lifecycle records to read: those of subscriptions whose trial began or first charge was collected before `begunBefore`. */
export interface LifecyclesQuery {
  /** ISO 8601 UTC. */
  readonly begunBefore: string;
}

/**
 * The subscriptions' lifecycle records (SubscriptionLifecycle): one per subscription, kept for
 * years beside the daily totals, for the views that need each subscriber and each subscription's
 * life (cohorts, recurring revenue movements and reactivations, the trial funnel). Optional in the
 * store contract: the kit writes them when the store keeps metrics and has these methods, and
 * `runLifecycleConformance` from `@dcbkit/core/store` checks them.
 */
export interface LifecycleStore {
  /**
   * Merges each record into the one held for its subscription, as mergeLifecycles does (each time
   * the earliest an event told, a read's only when no event told it; the end's cause with its
   * time): duplicates and any order of calls give the same records, on several instances at once.
   * All or nothing: rejects, merging none of them, when the write fails.
   */
  recordLifecycles(lifecycles: readonly SubscriptionLifecycle[]): Promise<void>;
  /** The records of the query, in any order. */
  readLifecycles(query: LifecyclesQuery): Promise<SubscriptionLifecycle[]>;
}

/** True when the store keeps lifecycle records (it has both LifecycleStore methods). */
export function isLifecycleStore<S extends object>(store: S): store is S & LifecycleStore {
  const candidate = store as Partial<LifecycleStore>;
  return typeof candidate.recordLifecycles === 'function' && typeof candidate.readLifecycles === 'function';
}

/** Whether a record answers the query: its trial began, or its first charge was collected, before `begunBefore`. */
export function begunBefore(lifecycle: SubscriptionLifecycle, before: string): boolean {
  const began = [lifecycle.trialStartedAt, lifecycle.firstPaidAt].some(
    (time) => time !== undefined && Date.parse(time.at) < Date.parse(before),
  );
  return began;
}
