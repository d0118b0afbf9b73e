import { availableUnits, type Entitlement, type EntitlementStatus, type ReconcileReport } from '@dcbkit/core';

/** Why a run read an entitlement: a due reason, a pending payment, or a run for one account. */
type CheckReason = ReconcileReport['changes'][number]['reason'];

/** One entitlement a run changed, as the operations view shows it. */
export interface RunChange {
  accountKey: string;
  productUid: string;
  reason: CheckReason;
  statusBefore: EntitlementStatus | null;
  statusAfter: EntitlementStatus;
  unitsBefore: number | null;
  unitsAfter: number | null;
  access: 'granted' | 'revoked' | undefined;
}

/** One check a run could not complete (the next run tries again). */
export interface RunFailure {
  accountKey: string;
  productUid: string;
  reason: CheckReason;
  code: string;
}

/** A reconcile run, kept small: its counts, and its first changes and failures. */
export interface RunSummary {
  /** Undefined: the reconciler's run over everything due; else the account an operator asked for. */
  accountKey: string | undefined;
  startedAt: string;
  finishedAt: string;
  checked: number;
  reads: number;
  unchanged: number;
  settledPayments: number;
  stopped: ReconcileReport['stopped'];
  changeCount: number;
  changes: RunChange[];
  failureCount: number;
  failures: RunFailure[];
}

/** The changes and failures a summary keeps: a run after an outage may change thousands. */
const ROWS_KEPT = 50;

export function summarizeRun(report: ReconcileReport, accountKey?: string): RunSummary {
  const unitsOf = (entitlement: Entitlement | undefined) =>
    entitlement?.type === 'CONSUMABLE' ? availableUnits(entitlement) : null;
  return {
    accountKey,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    checked: report.checked,
    reads: report.reads,
    unchanged: report.unchanged,
    settledPayments: report.settledPayments,
    stopped: report.stopped,
    changeCount: report.changes.length,
    changes: report.changes.slice(0, ROWS_KEPT).map((change) => ({
      accountKey: change.accountKey,
      productUid: change.productUid,
      reason: change.reason,
      statusBefore: change.before?.status ?? null,
      statusAfter: change.after.status,
      unitsBefore: unitsOf(change.before),
      unitsAfter: unitsOf(change.after),
      access: change.access,
    })),
    failureCount: report.failures.length,
    // The failure's code only: its error object may hold a response, and the log has it.
    failures: report.failures.slice(0, ROWS_KEPT).map((failure) => ({
      accountKey: failure.accountKey,
      productUid: failure.productUid,
      reason: failure.reason,
      code: failure.code,
    })),
  };
}

/** The last runs of this instance, newest first. */
export interface ReconcileRuns {
  add(report: ReconcileReport, accountKey?: string): RunSummary;
  list(): readonly RunSummary[];
}

/** Keeps the last `limit` runs in memory: they are for a look now, the history keeps what changed. */
export function createReconcileRuns(limit = 10): ReconcileRuns {
  const runs: RunSummary[] = [];
  return {
    add(report, accountKey) {
      const summary = summarizeRun(report, accountKey);
      runs.unshift(summary);
      runs.length = Math.min(runs.length, limit);
      return summary;
    },
    list: () => [...runs],
  };
}
