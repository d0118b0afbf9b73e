import type { EntitlementFacts, KnownFacts } from '../access/facts.js';
import type { DueCheck } from '../access/reconcile-deadline.js';
import type { Entitlement, EntitlementKey } from '../schemas/entitlement.js';

/**
 * Decides the next entitlement from the stored one. Must be pure and synchronous: a store may call
 * it again when a concurrent write got there first. Return undefined to leave the store as it is.
 * `known` says which of the update's facts the store already holds for this entitlement.
 */
export type EntitlementChange = (
  current: Entitlement | undefined,
  known: KnownFacts,
) => Entitlement | undefined;

/**
 * Where entitlements live, one per (accountKey, productUid). Implement it over your own database
 * and check it with `runStoreConformance` from `@dcbkit/core/store`. Records are plain JSON (see
 * `entitlementSchema`); returned records are snapshots the caller must not mutate.
 */
export interface EntitlementStore {
  get(accountKey: string, productUid: string): Promise<Entitlement | undefined>;
  /**
   * Atomic read-decide-write: `change` sees the committed record, and which of `facts` the store
   * already holds for this entitlement; its result and the facts are written together before any
   * other update of the same entitlement reads it (a row lock, a transaction, a compare-and-set
   * loop). When `change` returns a record (even the one it was given), the facts not yet held are
   * recorded with it; when it returns undefined, nothing is written and no fact recorded. Resolves
   * to the record as stored afterwards; rejects, writing nothing, when `change` throws or the write
   * fails. The result must keep the accountKey and productUid it was asked for.
   */
  update(
    accountKey: string,
    productUid: string,
    change: EntitlementChange,
    facts?: EntitlementFacts,
  ): Promise<Entitlement | undefined>;
  /** Every entitlement of the account, in productUid order. */
  listByAccount(accountKey: string): Promise<Entitlement[]>;
  /** The entitlement whose `subscriptionUid` is this one (for subscription events and pages). */
  findBySubscriptionUid(subscriptionUid: string): Promise<Entitlement | undefined>;
  /** The entitlement an update recorded this payment for (`facts.paymentUid`; for the return page and payment events). */
  findByPaymentUid(paymentUid: string): Promise<Entitlement | undefined>;

  // Reconciliation (docs/reconcile.md). Optional, so that a store written before them still
  // compiles and works for webhooks; `reconcile` refuses a store without them (`invalid_option`).
  // runStoreConformance checks them when a store has them.

  /**
   * The entitlements `reconcile` should confirm with a read: exactly those for which core's pure
   * `dueReason(entitlement, reconciledAt, query)` says a reason, in (accountKey, productUid) order
   * (JavaScript's string order, `COLLATE "C"` in SQL), after `query.after`, at most `query.limit`.
   */
  listDueEntitlements?(query: DueEntitlementsQuery): Promise<Entitlement[]>;
  /** Remembers that a reconciliation read confirmed this entitlement at `at` (see dueReason's `reconciledAt`). */
  markReconciled?(key: EntitlementKey, at: Date): Promise<void>;
  /** Remembers a payment a return page found still pending (idempotent: a second call keeps the first record). */
  recordPendingPayment?(payment: PendingPayment): Promise<void>;
  /** The pending payments, in paymentUid order, after `query.after`, at most `query.limit`. */
  listPendingPayments?(query: PendingPaymentsQuery): Promise<PendingPayment[]>;
  /** Forgets a pending payment (settled, or given up); nothing happens when it is unknown. */
  removePendingPayment?(paymentUid: string): Promise<void>;
  /**
   * Takes the lock `name` if no one holds it (across instances sharing the store): resolves to the
   * function that releases it, or undefined when another holder has it. Never waits.
   */
  tryLock?(name: string): Promise<ReleaseLock | undefined>;
}

/** What listDueEntitlements is asked (see dueReason for what due means). */
export interface DueEntitlementsQuery extends DueCheck {
  /** The key of the last entitlement of the previous page. */
  after?: EntitlementKey;
  limit: number;
}

/** A payment a return page left pending: reconciliation reads it until it settles. */
export interface PendingPayment {
  readonly paymentUid: string;
  readonly accountKey: string;
  readonly productUid: string;
  readonly offerUid: string;
  /** When the return page recorded it (ISO 8601). */
  readonly recordedAt: string;
}

export interface PendingPaymentsQuery {
  /** The paymentUid of the last payment of the previous page. */
  after?: string;
  limit: number;
}

/** Releases a lock taken with tryLock; releasing twice does nothing. */
export type ReleaseLock = () => Promise<void>;
