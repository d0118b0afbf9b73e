import type { PendingPayment } from './reconcile-store.js';

/** Whose checkouts a record covers: accounts (a line's, once a line names its accounts), or payments. */
export interface CheckoutRecordQuery {
  /** Every checkout of these accounts. */
  readonly accountKeys: readonly string[];
  /** Only these payments of those accounts; all of them when absent. */
  readonly paymentUids?: readonly string[];
  /**
   * Only the payments this line consented to (their `ended.subscriberUid`): a line's record, from
   * the accounts `kit.explainLine` names. A payment whose line the service never said is left out.
   */
  readonly subscriberUid?: string;
}

/**
 * What a complaint needs of a set of checkouts (`kit.checkoutRecord`): each payment the kit
 * recorded, in the order the checkouts started, with what the shop showed before consent
 * (`shown`) and how it ended (`ended`; absent while it is open). Nothing about the subscriber
 * beyond what the service gives the partner: no phone number.
 */
export interface CheckoutRecord {
  /** When it was made (the kit's clock, ISO 8601). */
  readonly at: string;
  readonly accountKeys: readonly string[];
  readonly payments: readonly PendingPayment[];
}
