// '@dcbkit/core/store': what a store author needs. The contracts (EntitlementStore, ReconcileStore,
// EventLedger), the pure rules a store may run inside its transaction (decide and its facts, the
// reconcile deadline a SQL store indexes), and the conformance suites that prove a store keeps them;
// and the business view's vocabulary: the kinds of fact a store keeps, and the numbers a metrics
// report holds (METRICS_MEASURES: a page's charts, its CSV and the counters derive from it).
// The resources a store holds (Entitlement, Payment…) are the app's types too: '@dcbkit/core' has them.
// Every name here is exported by this entry alone.

export { consumeUnitAt } from '../access/consume-unit.js';
export { decide, factsOf } from '../access/decide.js';
export type { EntitlementFacts, KnownFacts } from '../access/facts.js';
export { type LinePaysTwice, linePaysTwice } from '../access/line-twins.js';
export {
  type DueCheck,
  type DueReason,
  dueReason,
  isLiveSubscription,
  lastHeardAt,
  reconcileDeadline,
} from '../access/reconcile-deadline.js';
export { eventKey } from '../ledger/event-key.js';
export type { Claim, ClaimResult, ClaimToken, EventLedger } from '../ledger/event-ledger.js';
export {
  type CohortCount,
  cohortCountsOf,
  type LifecycleDaysQuery,
  type RevenueMoveDay,
  type RevenueMoves,
  revenueMovesOf,
  type TrialOutcome,
  type TrialOutcomeDay,
  trialOutcomeOf,
  trialOutcomesOf,
} from '../metrics/lifecycle-counts.js';
export { type MetricDay, type MetricDays, type MetricDaysQuery, utcDayOf } from '../metrics/metric-day.js';
export { type LiveChange, METRIC_KINDS, type MetricEntry, type MetricKind } from '../metrics/metric-entry.js';
export {
  METRICS_CHARTS,
  METRICS_MEASURES,
  type MetricsChart,
  type MetricsMeasure,
} from '../metrics/metrics-measures.js';
export { recurringRevenueOf } from '../metrics/revenue-movements.js';
export {
  type LifecycleEndCause,
  type LifecycleTime,
  lifecyclesOfFacts,
  mergeLifecycles,
  type SubscriptionLifecycle,
} from '../metrics/subscription-lifecycle.js';
export type { EntitlementKey } from '../schemas/entitlement.js';
export type { CheckoutRecord, CheckoutRecordQuery } from './checkout-record.js';
export { exampleEntitlement, uniqueId } from './conformance/example-entitlement.js';
export { historyChecks, runHistoryConformance } from './conformance/history-conformance.js';
export {
  type LedgerConformanceOptions,
  ledgerChecks,
  ledgerLeaseChecks,
  runLedgerConformance,
} from './conformance/ledger-conformance.js';
export { lifecycleChecks, runLifecycleConformance } from './conformance/lifecycle-conformance.js';
export { lineChecks, runLineConformance } from './conformance/line-conformance.js';
export { metricsChecks, runMetricsConformance } from './conformance/metrics-conformance.js';
export { onceChecks, runOnceConformance } from './conformance/once-conformance.js';
export { reconcileChecks, runReconcileConformance } from './conformance/reconcile-conformance.js';
export { runStoreConformance, storeChecks } from './conformance/store-conformance.js';
export type {
  ConformanceCheck,
  ConformanceOptions,
  DescribeFunction,
  ItFunction,
  TestRunner,
} from './conformance/test-runner.js';
export type { EntitlementChange, EntitlementStore, EntitlementUpdate } from './entitlement-store.js';
export {
  type HistoryDecision,
  type HistoryEntry,
  type HistoryQuery,
  type HistorySource,
  type HistoryStore,
  isHistoryStore,
} from './history-store.js';
export { isLifecycleStore, type LifecycleStore } from './lifecycle-store.js';
export { isLineStore, type LineStore } from './line-store.js';
export { isMetricsStore, type MetricsStore } from './metrics-store.js';
export {
  type ApplyOnceOptions,
  type DuplicateEntry,
  isOnceStore,
  type OnceResult,
  type OnceStore,
  type OnceWork,
} from './once-store.js';
export {
  type DueEntitlementsQuery,
  type DuePage,
  type DuePageQuery,
  type EndedPayment,
  isReconcileStore,
  type PaymentEnding,
  type PendingPayment,
  type PendingPaymentsQuery,
  RECONCILE_LOCK,
  type ReconcileStore,
  type ReleaseLock,
  type ShownOffer,
  type ShownTrial,
} from './reconcile-store.js';
