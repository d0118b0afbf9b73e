import type { EntitlementFacts, KnownFacts } from '../access/facts.js';
import type { Entitlement } from '../schemas/entitlement.js';

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
   * to the record `change` was last handed, the record as stored afterwards and whether anything
   * was written; rejects, writing nothing, when `change` throws or the write fails. The result must
   * keep the accountKey and productUid it was asked for.
   */
  update(
    accountKey: string,
    productUid: string,
    change: EntitlementChange,
    facts?: EntitlementFacts,
  ): Promise<EntitlementUpdate>;
  /** Every entitlement of the account, in productUid order. */
  listByAccount(accountKey: string): Promise<Entitlement[]>;
  /** The entitlement whose `subscriptionUid` is this one (for subscription events and pages). */
  findBySubscriptionUid(subscriptionUid: string): Promise<Entitlement | undefined>;
  /** The entitlement an update recorded this payment for (`facts.paymentUid`; for the return page and payment events). */
  findByPaymentUid(paymentUid: string): Promise<Entitlement | undefined>;
}

/**
 * What an update did. `previous` is the committed record the (last run of the) change was handed,
 * so a caller learns what it replaced without reading it again; `next` is the record as stored
 * afterwards (`previous` when nothing was written).
 */
export interface EntitlementUpdate {
  readonly previous: Entitlement | undefined;
  readonly next: Entitlement | undefined;
  /** True when the update committed something: a new record, or facts the store did not hold. */
  readonly wrote: boolean;
}
