import type { DcbLogger } from '../observability/logger.js';
import type { HistoryStore } from '../store/history-store.js';
import type { ReconcileStore } from '../store/reconcile-store.js';

/** What the running reconciler forgets after each run: what is older than the history's retention. */
export interface PastRetention {
  /** The store's history when the kit records one. */
  readonly history: HistoryStore | undefined;
  readonly store: ReconcileStore;
  readonly retentionMs: number;
  /** The kit's clock: an ending's `at` is written by it. */
  readonly now: () => Date;
  readonly logger: DcbLogger;
}

/**
 * Removes the history entries and the ended checkout records older than the retention, so that
 * neither table grows for ever. Ended checkouts are kept as long as the history that explains
 * them: a complaint about an older payment finds neither. Pending payments not ended are kept.
 */
export async function prunePastRetention({
  history,
  store,
  retentionMs,
  now,
  logger,
}: PastRetention): Promise<void> {
  if (history !== undefined) {
    // History's recordedAt is by the real clock.
    const removed = await history.pruneHistory(new Date(Date.now() - retentionMs));
    if (removed > 0) logger.debug?.({ removed }, 'dcbkit: pruned history past its retention');
  }
  if (store.pruneEndedPayments !== undefined) {
    const removed = await store.pruneEndedPayments(new Date(now().getTime() - retentionMs));
    if (removed > 0) logger.debug?.({ removed }, 'dcbkit: pruned ended checkouts past the retention');
  }
}
