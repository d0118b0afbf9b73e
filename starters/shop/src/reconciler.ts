import type { DcbKit } from '@dcbkit/core';
import { createReconcileRuns, type ReconcileRuns } from './ops/reconcile-runs.js';

/** The shop's running reconciler, and its last runs for the operations view. */
export interface ShopReconciler {
  /** RECONCILE_EVERY_MINUTES: minutes between runs; 0 when it is off. */
  readonly everyMinutes: number;
  /** This instance's last runs (and the operators' "reconcile this account now"), newest first. */
  readonly runs: ReconcileRuns;
  /** Stops the timer and waits for a run in progress to end (it is aborted). */
  stop(): Promise<void>;
}

/**
 * Repairs what missed webhooks left behind: a run at once, then one every `everyMinutes`. Several
 * instances may each run it: the store's lock lets one read at a time, the others skip their turn.
 * Each run also prunes the history past its retention (the kit does both).
 */
export function startShopReconciler(
  kit: Pick<DcbKit, 'startReconciler'>,
  everyMinutes: number,
): ShopReconciler {
  const runs = createReconcileRuns();
  if (everyMinutes === 0) return { everyMinutes, runs, stop: async () => {} };
  const reconciler = kit.startReconciler({
    everyMs: everyMinutes * 60_000,
    onReport: (report) => runs.add(report),
  });
  return { everyMinutes, runs, stop: () => reconciler.stop() };
}
