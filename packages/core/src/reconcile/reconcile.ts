import { dueReason } from '../access/reconcile-deadline.js';
import { historyRecorder } from '../apply/history-entry.js';
import { keptHistoryOf } from '../apply/kept-history.js';
import { factRecorder, keptMetricsOf } from '../apply/record-facts.js';
import { optionError } from '../errors/option-error.js';
import { type OptionNames, refuseUnknownOptions } from '../errors/unknown-options.js';
import { createBusinessCounters } from '../metrics/business-counters.js';
import type { DcbLogger } from '../observability/logger.js';
import { defineOffers, isOffers } from '../offers/define-offers.js';
import type { DueEntitlementsQuery } from '../store/reconcile-store.js';
import type { CheckContext } from './check-context.js';
import { checkPendingPayment } from './check-pending-payment.js';
import { entitlementSource, keyOf, pendingPaymentSource } from './check-sources.js';
import { checkSubscription } from './check-subscription.js';
import { dryRunStore } from './dry-run-store.js';
import { runBounded } from './paging.js';
import { RateLimitGate, realSleep } from './rate-limit-gate.js';
import {
  type ReconcileOptions,
  type ResolvedRunOptions,
  requireReconcileStore,
  resolveRunOptions,
} from './reconcile-options.js';
import type { CheckReason, ReconcileReport } from './reconcile-report.js';
import { reportTally } from './report-tally.js';

/** Every option reconcile takes: the compiler holds this list to ReconcileOptions. */
const RECONCILE_OPTIONS: OptionNames<ReconcileOptions> = {
  client: true,
  store: true,
  offers: true,
  on: true,
  logger: true,
  now: true,
  history: true,
  metrics: true,
  maxAgeMs: true,
  concurrency: true,
  pageSize: true,
  maxChecks: true,
  pendingPayments: true,
  pendingMaxAgeMs: true,
  maxRateLimitWaits: true,
  maxRetryAfterMs: true,
  signal: true,
  sleep: true,
  dryRun: true,
  accountKey: true,
  accountKeyField: true,
  accountKeyOfEvent: true,
};

/**
 * Recovers entitlements whose webhooks were missed (a receiver down past the service's five
 * attempts in 48 hours, say): finds the entitlements that may be stale (see dueReason) and the
 * payments return pages left pending, confirms each with a server-side read, and applies what the
 * read says through the same rules as the webhooks. A read never masks a later event: replaying
 * the dead-lettered events afterwards ends in the state they give.
 *
 * Reads run `concurrency` at a time; SEC-001 pauses every read for its Retry-After, then the run
 * goes on (within `maxRateLimitWaits`); `signal` stops it cleanly. It never throws for one
 * failed read (see the report's `failures`), only for options, or a store that fails.
 *
 * @example
 * const report = await reconcile({ client, store, offers });
 * for (const change of report.changes) console.log(change.accountKey, change.before?.status, '->', change.after.status);
 */
export async function reconcile(options: ReconcileOptions): Promise<ReconcileReport> {
  if (typeof options !== 'object' || options === null)
    throw optionError('reconcile', 'options', 'are required.');
  refuseUnknownOptions('reconcile', options, RECONCILE_OPTIONS);
  const run = resolveRunOptions(options);
  const { store, client, signal } = options;
  if (
    typeof client?.subscriptions?.retrieve !== 'function' ||
    typeof client.payments?.retrieve !== 'function'
  ) {
    throw optionError('reconcile', 'client', 'must be the API client (createClient or kit.client).');
  }
  if (typeof store?.update !== 'function')
    throw optionError('reconcile', 'store', 'must be an EntitlementStore.');
  requireReconcileStore(store);
  const context = checkContextOf(options, run);
  const { now, budget } = context;
  const logger = options.logger ?? {};
  const startedAt = now();
  const report = emptyReport(startedAt);
  const tally = reportTally(report, signal, run.maxChecks);
  const query: Omit<DueEntitlementsQuery, 'limit'> = {
    now: startedAt,
    staleBefore: run.maxAgeMs === null ? null : new Date(startedAt.getTime() - run.maxAgeMs),
  };
  const forAccount = run.accountKey;
  const due = await entitlementSource(store, query, run.pageSize, forAccount);
  await runBounded(due, run.concurrency, tally.mayStart, async (entitlement) => {
    const reason: CheckReason =
      forAccount === undefined ? (dueReason(entitlement, null, query) ?? 'stale') : 'requested';
    await tally.settle(
      { ...keyOf(entitlement), reason, subscriptionUid: entitlement.subscriptionUid ?? '' },
      () => checkSubscription(entitlement, reason, context),
    );
  });
  if (run.pendingPayments && report.stopped === undefined) {
    const pending = await pendingPaymentSource(store, run.pageSize, forAccount);
    await runBounded(pending, run.concurrency, tally.mayStart, async (payment) => {
      const { accountKey, productUid, paymentUid } = payment;
      await tally.settle({ accountKey, productUid, reason: 'pending_payment', paymentUid }, () =>
        checkPendingPayment(payment, context),
      );
    });
  }
  report.reads = budget.reads;
  report.rateLimitWaits = budget.gate.waits;
  report.finishedAt = now().toISOString();
  if (!run.dryRun) createBusinessCounters().repairs(report.changes.length);
  logReport(logger, report);
  return report;
}

/** What each check of a run works with; a dry run's store writes nothing and its listeners never run. */
function checkContextOf(options: ReconcileOptions, run: ResolvedRunOptions): CheckContext {
  const { store } = options;
  const { dryRun } = run;
  const keptMetrics = dryRun ? undefined : keptMetricsOf(store, options.metrics);
  return {
    client: options.client,
    store: dryRun ? dryRunStore(store) : store,
    offers: isOffers(options.offers) ? options.offers : defineOffers(options.offers),
    accountKeys: { accountKeyField: options.accountKeyField, accountKeyOfEvent: options.accountKeyOfEvent },
    on: dryRun ? {} : (options.on ?? {}),
    now: options.now ?? (() => new Date()),
    pendingMaxAgeMs: run.pendingMaxAgeMs,
    budget: {
      gate: new RateLimitGate(options.sleep ?? realSleep, options.signal),
      signal: options.signal,
      maxRateLimitWaits: run.maxRateLimitWaits,
      maxRetryAfterMs: run.maxRetryAfterMs,
      reads: 0,
    },
    recordHistory: historyRecorder(dryRun ? undefined : keptHistoryOf(store, options.history)),
    recordFacts: dryRun ? undefined : factRecorder(keptMetrics),
    keepsFacts: keptMetrics !== undefined,
  };
}

function emptyReport(startedAt: Date): ReconcileReport {
  return {
    startedAt: startedAt.toISOString(),
    finishedAt: startedAt.toISOString(),
    checked: 0,
    reads: 0,
    changes: [],
    unchanged: 0,
    settledPayments: 0,
    failures: [],
    rateLimitWaits: 0,
  };
}

/** The run's summary at info level, and each failure at warn level. */
function logReport(logger: DcbLogger, report: ReconcileReport): void {
  logger.info?.(
    {
      checked: report.checked,
      reads: report.reads,
      changed: report.changes.length,
      failed: report.failures.length,
      ...(report.stopped ? { stopped: report.stopped } : {}),
    },
    `dcbkit: reconciliation checked ${report.checked}, changed ${report.changes.length}, failed ${report.failures.length}`,
  );
  for (const failure of report.failures) {
    logger.warn?.(
      {
        accountKey: failure.accountKey,
        productUid: failure.productUid,
        code: failure.code,
        err: failure.error,
      },
      `dcbkit: reconciliation could not check ${failure.subscriptionUid ?? failure.paymentUid}: ${failure.message}`,
    );
  }
}
