import { dueReason } from '../access/reconcile-deadline.js';
import { historyRecorder } from '../apply/history-entry.js';
import { isDcbError } from '../errors/dcb-error.js';
import { optionError } from '../errors/option-error.js';
import { defineOffers, isOffers } from '../offers/define-offers.js';
import type { Entitlement, EntitlementKey } from '../schemas/entitlement.js';
import { isHistoryStore } from '../store/history-store.js';
import type { DueEntitlementsQuery, PendingPayment } from '../store/reconcile-store.js';
import type { CheckContext, CheckResult } from './check-context.js';
import { checkPendingPayment } from './check-pending-payment.js';
import { checkSubscription } from './check-subscription.js';
import { dryRunStore } from './dry-run-store.js';
import { pagedSource, runBounded } from './paging.js';
import { RateLimitGate, realSleep } from './rate-limit-gate.js';
import { RateLimitBudgetSpent, type ReadBudget } from './read-politely.js';
import { type ReconcileOptions, requireReconcileStore, resolveRunOptions } from './reconcile-options.js';
import type { CheckReason, ReconcileFailure, ReconcileReport } from './reconcile-report.js';

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
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? {};
  const budget: ReadBudget = {
    gate: new RateLimitGate(options.sleep ?? realSleep, signal),
    signal,
    maxRateLimitWaits: run.maxRateLimitWaits,
    maxRetryAfterMs: run.maxRetryAfterMs,
    reads: 0,
  };
  const dryRun = run.dryRun;
  const keepsHistory = !dryRun && options.history !== false && isHistoryStore(store);
  const context: CheckContext = {
    client,
    store: dryRun ? dryRunStore(store) : store,
    offers: isOffers(options.offers) ? options.offers : defineOffers(options.offers),
    accountKeys: { accountKeyField: options.accountKeyField, accountKeyOfEvent: options.accountKeyOfEvent },
    on: dryRun ? {} : (options.on ?? {}),
    now,
    pendingMaxAgeMs: run.pendingMaxAgeMs,
    budget,
    recordHistory: historyRecorder(keepsHistory ? store : undefined),
  };
  const startedAt = now();
  const report: ReconcileReport = {
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

  const mayStart = () => {
    if (signal?.aborted) report.stopped ??= 'aborted';
    else if (report.checked >= run.maxChecks) report.stopped ??= 'limit';
    if (report.stopped !== undefined) return false;
    report.checked++;
    return true;
  };

  /** Files one check's outcome in the report; a failed read is a failure, never a throw. */
  const settle = async (target: Target, check: () => Promise<CheckResult>) => {
    try {
      record(report, target, await check());
    } catch (error) {
      if (signal?.aborted || isDcbError(error, 'aborted')) {
        report.stopped ??= 'aborted';
        return;
      }
      if (error instanceof RateLimitBudgetSpent) {
        report.stopped ??= 'rate_limited';
        report.failures.push(failureOf(target, 'SEC-001', error.message, error.lastRefusal));
        return;
      }
      const code = isDcbError(error) ? String(error.code) : 'unknown';
      report.failures.push(failureOf(target, code, (error as Error)?.message ?? String(error), error));
    }
  };

  const query: Omit<DueEntitlementsQuery, 'limit'> = {
    now: startedAt,
    staleBefore: run.maxAgeMs === null ? null : new Date(startedAt.getTime() - run.maxAgeMs),
  };
  {
    const forAccount = run.accountKey;
    const due =
      forAccount === undefined
        ? pagedSource<Entitlement>(
            (after) =>
              store.listDueEntitlements({
                ...query,
                ...(after ? { after: keyOf(after) } : {}),
                limit: run.pageSize,
              }),
            run.pageSize,
          )
        : accountSource(await store.listByAccount(forAccount));
    await runBounded(due, run.concurrency, mayStart, async (entitlement) => {
      const reason: CheckReason =
        forAccount === undefined ? (dueReason(entitlement, null, query) ?? 'stale') : 'requested';
      await settle(
        { ...keyOf(entitlement), reason, subscriptionUid: entitlement.subscriptionUid ?? '' },
        () => checkSubscription(entitlement, reason, context),
      );
    });
  }
  if (run.pendingPayments && report.stopped === undefined) {
    const pending =
      run.accountKey === undefined
        ? pagedSource<PendingPayment>(
            (after) =>
              store.listPendingPayments({
                ...(after ? { after: after.paymentUid } : {}),
                limit: run.pageSize,
              }),
            run.pageSize,
          )
        : listSource(await store.listPendingPaymentsOfAccount(run.accountKey));
    await runBounded(pending, run.concurrency, mayStart, async (payment) => {
      const target: Target = {
        accountKey: payment.accountKey,
        productUid: payment.productUid,
        reason: 'pending_payment',
        paymentUid: payment.paymentUid,
      };
      await settle(target, () => checkPendingPayment(payment, context));
    });
  }

  report.reads = budget.reads;
  report.rateLimitWaits = budget.gate.waits;
  report.finishedAt = now().toISOString();
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
  return report;
}

/** The account's entitlements a read can check: those with a subscription. */
function accountSource(entitlements: Entitlement[]): () => Promise<Entitlement | undefined> {
  return listSource(entitlements.filter((entitlement) => entitlement.subscriptionUid !== null));
}

/** A list as a source runBounded takes: the next item, undefined once done. */
function listSource<T>(items: readonly T[]): () => Promise<T | undefined> {
  let next = 0;
  return async () => items[next++];
}

interface Target extends EntitlementKey {
  reason: CheckReason;
  subscriptionUid?: string;
  paymentUid?: string;
}

function keyOf(key: EntitlementKey): EntitlementKey {
  return { accountKey: key.accountKey, productUid: key.productUid };
}

function record(report: ReconcileReport, target: Target, result: CheckResult): void {
  switch (result.kind) {
    case 'unchanged':
      report.unchanged++;
      return;
    case 'failed':
      report.failures.push(failureOf(target, result.code, result.message, undefined));
      return;
    case 'settled':
      report.settledPayments++;
      if (result.change === undefined) report.unchanged++;
      break;
    case 'changed':
      break;
  }
  if (result.change) report.changes.push(result.change);
  if (result.listenerError !== undefined) {
    const error = result.listenerError;
    // The change is committed: the listener is the partner's code, reported, not retried.
    report.failures.push(
      failureOf(target, 'processing_failed', `A listener threw: ${(error as Error)?.message}`, error),
    );
  }
}

function failureOf(target: Target, code: string, message: string, error: unknown): ReconcileFailure {
  return { ...target, code, message, error };
}
