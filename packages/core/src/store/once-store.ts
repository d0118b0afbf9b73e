import type { ClaimToken, EventLedger } from '../ledger/event-ledger.js';
import type { MetricEntry } from '../metrics/metric-entry.js';
import type { EntitlementKey } from '../schemas/entitlement.js';
import type { HistoryEntry } from './history-store.js';

/**
 * What `work` answers: `keep: false` rolls the transaction back (nothing it wrote stays and the key
 * stays unclaimed, so the service's retry is processed); `target` is the entitlement the event was
 * applied to, kept with the key so that a later copy's history names it; `facts` are the event's
 * business facts, for a store that is also a MetricsStore to record in the same transaction as
 * `recordMetrics` would (each key counted once), after `work` returns: nothing in the transaction
 * reads them back, so they need no round trip of their own.
 */
export interface OnceWork<T> {
  keep: boolean;
  value: T;
  target?: EntitlementKey | undefined;
  facts?: readonly MetricEntry[] | undefined;
}

/**
 * The part of a duplicate's history entry only the event gives; the store adds the entitlement, its
 * status and the time it records it (`recordedAt`, the real time, as every entry's).
 */
export type DuplicateEntry = Pick<
  HistoryEntry,
  'eventName' | 'eventKey' | 'occurredAt' | 'paymentUid' | 'subscriptionUid'
>;

export interface ApplyOnceOptions {
  /** The handler's deadline: no lock is waited for, and no statement runs, longer. */
  timeoutMs: number;
  /**
   * When the key was processed before, this copy's history entry, written by the statement that
   * found it (a duplicate costs one statement). Undefined: no history is kept.
   */
  duplicate?: DuplicateEntry | undefined;
  /**
   * The phone line (subscriberUid) the event pays on, when the handler checks lines: the store
   * applies the events of one line one after the other (PostgreSQL: a lock on the line taken with
   * the claim, held to the commit), so that the line check of each sees the other's entitlement
   * and a line paying twice through two instances at once is still seen.
   */
  line?: string | undefined;
}

/**
 * - `applied`: `work` ran and what it wrote is committed with the key, as one transaction.
 * - `rolled_back`: `work` ran and answered `keep: false`; nothing stays.
 * - `duplicate`: the key was processed before; `work` did not run.
 * - `in_progress`: another delivery of the key holds it past the deadline (or a two-phase claim of
 *   it is in its lease); the service should retry.
 */
export type OnceResult<T> =
  | {
      status: 'applied';
      value: T;
      token: ClaimToken;
      /** Of the work's `facts`, those the store counted (their key was new), as `recordMetrics` answers. */
      counted?: readonly MetricEntry[] | undefined;
    }
  | { status: 'rolled_back'; value: T }
  | { status: 'duplicate' }
  | { status: 'in_progress' };

/**
 * Optional, for stores that hold a transaction and keep the ledger in the same database: a webhook
 * event applied exactly once in **one transaction** (the claim, the decision, the record, its
 * history and facts, and the key marked processed commit together), instead of the ledger's
 * claim, the store's writes and the completion each committed on its own. The database then gives
 * the concurrency rule: a second copy's claim of the key waits on the first transaction and sees
 * it committed (a duplicate) or rolled back (new). A crash before the commit leaves nothing.
 *
 * The webhook handler takes this path when its store has `applyOnce` and its ledger is
 * `onceLedger` (the same tables); otherwise the two-phase ledger path. Check an implementation
 * with `runOnceConformance`.
 */
export interface OnceStore<Tx> {
  /** The ledger whose table `applyOnce` claims keys in. */
  readonly onceLedger: EventLedger;
  /**
   * Claims `key` and runs `work` with the store bound to the transaction; commits when `work`
   * answers `keep: true` (with its `facts`, when the store keeps the business view), rolls back
   * when it answers `keep: false` or throws (and rethrows).
   */
  applyOnce<T>(
    key: string,
    work: (tx: Tx) => Promise<OnceWork<T>>,
    options: ApplyOnceOptions,
  ): Promise<OnceResult<T>>;
  /**
   * Forgets a key `applyOnce` committed with `token`, so that its next delivery is processed again
   * (a listener failed after the commit: listeners run at least once). A key taken since is kept.
   */
  reopen(key: string, token: ClaimToken): Promise<void>;
}

export function isOnceStore<Tx = unknown>(store: object | undefined): store is OnceStore<Tx> {
  return (
    store !== undefined &&
    typeof (store as Partial<OnceStore<Tx>>).applyOnce === 'function' &&
    typeof (store as Partial<OnceStore<Tx>>).reopen === 'function'
  );
}
