import type { Entitlement } from '../schemas/entitlement.js';

/**
 * The entitlements of one phone line (`subscriberUid`), whichever account holds them. The
 * operator bills a line, not an account: two accounts on one line may each buy the same
 * subscription, and the line then pays twice. Optional in the store contract: with it the kit sees
 * that the moment it happens (`on.linePaysTwice`, `kit.explainLine`, the operations view's search
 * by line); without it the kit says nothing of lines. `runLineConformance` from
 * `@dcbkit/core/store` checks it.
 */
export interface LineStore {
  /**
   * Every entitlement whose `subscriberUid` is this one, of any account and status, in
   * (accountKey, productUid) order (JavaScript's string order). Empty for a line never seen.
   */
  listBySubscriberUid(subscriberUid: string): Promise<Entitlement[]>;
}

/** True when the store answers by line (it has `listBySubscriberUid`). */
export function isLineStore<S extends object>(store: S): store is S & LineStore {
  return typeof (store as Partial<LineStore>).listBySubscriberUid === 'function';
}

/** The order `listBySubscriberUid` answers in: by account, then by product, as strings compare. */
export function byAccountThenProduct(a: Entitlement, b: Entitlement): number {
  if (a.accountKey !== b.accountKey) return a.accountKey < b.accountKey ? -1 : 1;
  return a.productUid < b.productUid ? -1 : a.productUid > b.productUid ? 1 : 0;
}
