import type { Entitlement } from '../entitlement.js';

/**
 * Decides the next entitlement from the stored one. Must be pure and synchronous: a store may call
 * it again when a concurrent write got there first. Return undefined to leave the store as it is.
 */
export type EntitlementChange = (current: Entitlement | undefined) => Entitlement | undefined;

/**
 * Where entitlements live, one per (accountKey, productUid). Implement it over your own database
 * and check it with `runStoreConformance` from `@dcbkit/core/testing`. Records are plain JSON (see
 * `entitlementSchema`); returned records are snapshots the caller must not mutate.
 */
export interface EntitlementStore {
  get(accountKey: string, productUid: string): Promise<Entitlement | undefined>;
  /**
   * Atomic read-decide-write: `change` sees the committed record and its result is written before
   * any other update of the same entitlement reads it (a row lock, a transaction, a compare-and-set
   * loop). Resolves to the record as stored afterwards; rejects, writing nothing, when `change`
   * throws or the write fails. The result must keep the accountKey and productUid it was asked for.
   */
  update(accountKey: string, productUid: string, change: EntitlementChange): Promise<Entitlement | undefined>;
  /** Every entitlement of the account, in productUid order. */
  listByAccount(accountKey: string): Promise<Entitlement[]>;
  /** The entitlement whose `subscriptionUid` is this one (for subscription events and pages). */
  findBySubscriptionUid(subscriptionUid: string): Promise<Entitlement | undefined>;
  /** The entitlement whose `paymentUids` include this one (for the return page). */
  findByPaymentUid(paymentUid: string): Promise<Entitlement | undefined>;
}
