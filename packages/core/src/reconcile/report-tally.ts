import { isDcbError } from '../errors/dcb-error.js';
import type { EntitlementKey } from '../schemas/entitlement.js';
import type { CheckResult } from './check-context.js';
import { RateLimitBudgetSpent } from './read-politely.js';
import type { CheckReason, ReconcileFailure, ReconcileReport } from './reconcile-report.js';

/** What one check is about: the entitlement, why it is checked, the resource read. */
export interface CheckTarget extends EntitlementKey {
  reason: CheckReason;
  subscriptionUid?: string;
  paymentUid?: string;
}

/** How a run fills its report: whether one more check may start, and each check's outcome filed. */
export interface ReportTally {
  /** False once the run is aborted, past `maxChecks`, or stopped otherwise; else counts the check. */
  mayStart(): boolean;
  /** Files one check's outcome in the report; a failed read is a failure, never a throw. */
  settle(target: CheckTarget, check: () => Promise<CheckResult>): Promise<void>;
}

export function reportTally(
  report: ReconcileReport,
  signal: AbortSignal | undefined,
  maxChecks: number,
): ReportTally {
  return {
    mayStart() {
      if (signal?.aborted) report.stopped ??= 'aborted';
      else if (report.checked >= maxChecks) report.stopped ??= 'limit';
      if (report.stopped !== undefined) return false;
      report.checked++;
      return true;
    },
    async settle(target, check) {
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
    },
  };
}

function record(report: ReconcileReport, target: CheckTarget, result: CheckResult): void {
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

function failureOf(target: CheckTarget, code: string, message: string, error: unknown): ReconcileFailure {
  return { ...target, code, message, error };
}
