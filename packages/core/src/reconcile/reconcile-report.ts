import type { DueReason } from '../access/reconcile-deadline.js';
import type { Entitlement } from '../schemas/entitlement.js';

/** Why reconciliation looked at something: a due entitlement's reason, or a payment left pending. */
/** Why a run read something: a due reason, a pending payment, or `requested` (a run for one account). */
export type CheckReason = DueReason | 'pending_payment' | 'requested';

/** One entitlement a read changed. */
export interface ReconcileChange {
  accountKey: string;
  productUid: string;
  reason: CheckReason;
  /** The subscription read (due entitlements), or the payment read (pending payments). */
  subscriptionUid?: string;
  paymentUid?: string;
  before: Entitlement | undefined;
  after: Entitlement;
  /** Set when access started or ended by this change (the listeners ran for it). */
  access?: 'granted' | 'revoked';
}

/** One check that could not be completed; the next run tries again. */
export interface ReconcileFailure {
  reason: CheckReason;
  accountKey: string;
  productUid: string;
  subscriptionUid?: string;
  paymentUid?: string;
  /** The DcbError code (`SUB-101`, `timeout`, `service_unreachable`…), or `unknown`. */
  code: string;
  message: string;
  error: unknown;
}

/**
 * What one run did. `checked` counts the entitlements and pending payments looked at; `reads`
 * the API requests sent (SEC-001 answers included), the run's cost against your rate limit.
 */
export interface ReconcileReport {
  startedAt: string;
  finishedAt: string;
  checked: number;
  reads: number;
  /** Entitlements a read changed, with before and after. */
  changes: ReconcileChange[];
  /** Entitlements and payments read that needed no change. */
  unchanged: number;
  /** Pending payments settled (succeeded, failed, expired, canceled, or applied by their webhook) and forgotten. */
  settledPayments: number;
  failures: ReconcileFailure[];
  /** How many times the run paused for the service's Retry-After (SEC-001). */
  rateLimitWaits: number;
  /**
   * Why the run stopped before it had checked everything due: `aborted` (the signal),
   * `rate_limited` (the service kept answering SEC-001 past the run's budget), `limit` (maxChecks).
   * Undefined: it went through everything due.
   */
  stopped?: 'aborted' | 'rate_limited' | 'limit';
}
