import { historyRecorder } from '../apply/history-entry.js';
import { factRecorder } from '../apply/record-facts.js';
import type { DcbClient } from '../client/create-client.js';
import { reconcile } from '../reconcile/reconcile.js';
import { type ReconcileRunOptions, requireReconcileStore } from '../reconcile/reconcile-options.js';
import { startReconciler } from '../reconcile/start-reconciler.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import type { DcbKit } from './kit-types.js';
import { cancelNewerOnLinesPayingTwice } from './line-sweep.js';
import { prunePastRetention } from './prune-past-retention.js';
import type { ResolvedKitConfig } from './resolve-kit-config.js';

/** The kit's `reconcile` and `startReconciler`, on its store, offers, listeners and history. */
export function kitReconcilers<Store extends EntitlementStore>(
  resolved: ResolvedKitConfig<Store>,
  client: DcbClient,
): Pick<DcbKit<Store>, 'reconcile' | 'startReconciler'> {
  const { store, history, metrics, logger } = resolved;
  const recordHistory = historyRecorder(history);
  const recordFacts = factRecorder(metrics);
  const reconcileWithKit = async (options: ReconcileRunOptions = {}) => {
    requireReconcileStore(store, 'kit.reconcile');
    const report = await reconcile({ ...options, ...resolved.reconcile, client, store });
    // A cancel the webhook could not make, and whose event the service stopped retrying, is made here.
    if (
      resolved.webhook.linePolicy === 'cancel-newer' &&
      !options.dryRun &&
      options.accountKey === undefined
    ) {
      const { offers, now } = resolved;
      await cancelNewerOnLinesPayingTwice({ store, client, offers, now, logger, recordHistory, recordFacts });
    }
    return report;
  };
  return {
    reconcile: reconcileWithKit,
    startReconciler(options) {
      requireReconcileStore(store, 'kit.startReconciler');
      const retention = {
        history,
        store,
        retentionMs: resolved.historyRetentionMs,
        now: resolved.now,
        logger,
      };
      /** One reconcile run, then the history and the ended checkouts past the retention pruned (under the same lock). */
      const reconcileAndPrune = async (runOptions: ReconcileRunOptions) => {
        const report = await reconcileWithKit(runOptions);
        if (!runOptions.dryRun) await prunePastRetention(retention);
        return report;
      };
      return startReconciler(reconcileAndPrune, store, logger, options);
    },
  };
}
