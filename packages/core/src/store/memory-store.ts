import { type OptionNames, refuseUnknownOptions } from '../errors/unknown-options.js';
import type { EntitlementStore } from './entitlement-store.js';
import type { HistoryStore } from './history-store.js';
import type { LifecycleStore } from './lifecycle-store.js';
import type { LineStore } from './line-store.js';
import { memoryEntitlements } from './memory-entitlements.js';
import { DEFAULT_MEMORY_HISTORY_LIMIT, memoryHistory } from './memory-history.js';
import { memoryLifecycles } from './memory-lifecycles.js';
import { memoryMetrics } from './memory-metrics.js';
import { memoryReconcileBookkeeping } from './memory-reconcile-bookkeeping.js';
import type { MetricsStore } from './metrics-store.js';
import type { ReconcileStore } from './reconcile-store.js';

export interface MemoryStoreOptions {
  /** The most history entries kept; the oldest go first. Default 10 000. */
  historyLimit?: number;
}

const MEMORY_STORE_OPTIONS: OptionNames<MemoryStoreOptions> = { historyLimit: true };

/**
 * An in-process EntitlementStore, for development, tests and single-instance apps: entitlements
 * are lost on restart. It keeps reconciliation's bookkeeping, a bounded history and the business
 * view's daily totals and each subscription's lifecycle too, and answers by phone line. Updates are atomic because each runs without yielding to the event loop.
 * Records are handed out without copying: the Entitlement type is readonly throughout, and every
 * change makes a new record, so one already returned never changes.
 *
 * @example
 * const store = memoryStore();
 * const handler = createWebhookHandler({ secrets, store, ledger: memoryLedger(), offers });
 */
export function memoryStore(
  options: MemoryStoreOptions = {},
): EntitlementStore & ReconcileStore & HistoryStore & MetricsStore & LifecycleStore & LineStore {
  refuseUnknownOptions('memoryStore', options, MEMORY_STORE_OPTIONS);
  const entitlements = memoryEntitlements();
  return {
    ...memoryHistory(options.historyLimit ?? DEFAULT_MEMORY_HISTORY_LIMIT),
    ...entitlements.store,
    ...memoryReconcileBookkeeping(entitlements.all),
    ...memoryMetrics(),
    ...memoryLifecycles(),
  };
}
