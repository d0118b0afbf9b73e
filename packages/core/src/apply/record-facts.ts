import { type BusinessCounters, createBusinessCounters } from '../metrics/business-counters.js';
import type { MetricEntry } from '../metrics/metric-entry.js';
import { lifecyclesOfFacts } from '../metrics/subscription-lifecycle.js';
import { isLifecycleStore } from '../store/lifecycle-store.js';
import { isMetricsStore, type MetricsStore } from '../store/metrics-store.js';

/** Writes the business view's facts of one decision, and counts the new ones. */
export type RecordFacts = (entries: readonly MetricEntry[]) => Promise<void>;

/**
 * Whether a part records the business view's facts, decided by one rule for the kit, the webhook
 * handler, the routes and reconciliation: the store keeps them and `metrics` is not `false`.
 */
export function keptMetricsOf<S extends object>(
  store: S,
  metrics: boolean | undefined,
): (S & MetricsStore) | undefined {
  return metrics !== false && isMetricsStore(store) ? store : undefined;
}

/**
 * The facts' recorder of a part: to the store's daily totals when it keeps them (each fact once,
 * whoever saw it), and to its lifecycle records when it keeps those too (LifecycleStore: every
 * fact, as their merges are order-free and idempotent), then the OpenTelemetry counters by what
 * the store counted. Without a store that
 * keeps them, the counters alone, by what was seen (a redelivery counts again there). Undefined
 * when there is neither.
 */
export function factRecorder(
  metrics: MetricsStore | undefined,
  counters: BusinessCounters = createBusinessCounters(),
): RecordFacts | undefined {
  // Neither a store that keeps them nor an SDK to count them: no fact is even derived.
  if (metrics === undefined && !counters.enabled) return undefined;
  const lifecycles = metrics !== undefined && isLifecycleStore(metrics) ? metrics : undefined;
  return async (entries) => {
    if (entries.length === 0) return;
    const counted = metrics === undefined ? entries : await metrics.recordMetrics(entries);
    const records = lifecycles === undefined ? [] : lifecyclesOfFacts(entries);
    if (records.length > 0) await lifecycles?.recordLifecycles(records);
    counters.facts(counted);
  };
}
