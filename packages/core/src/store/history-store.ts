import type { EntitlementStatus } from '../schemas/entitlement.js';

/** What made the kit touch an entitlement. */
export type HistorySource =
  /** A verified webhook event. */
  | 'webhook'
  /** The return page's server-side read of a payment. */
  | 'return_page'
  /** Reconciliation's read of a subscription or a payment. */
  | 'reconcile'
  /** A cancel or resume route, from the API's answer. */
  | 'subscription_action'
  /** The spendUnit route, or `consumeUnit` through the kit. */
  | 'unit_spent';

/**
 * What the rules made of it:
 * - `applied`: it set the entitlement's status (or counted a unit, or took the record over);
 * - `unchanged`: nothing to change (the store already said the same);
 * - `duplicate`: a webhook delivery of an event already processed; not applied again;
 * - `stale`: an event older than the one the entitlement holds; its status was not taken;
 * - `superseded`: an event of the same instant that lost to the held one by the order of steps;
 * - `tie_settled_by_read`: a same-instant tie that a read of the subscription settled;
 * - `line_pays_twice`: the entitlement's phone line (`subscriberUid`) holds a live subscription of
 *   the same product under another account: the line is charged for both. Not a change of the
 *   entitlement: recorded in both accounts' history (see `on.linePaysTwice`).
 */
export type HistoryDecision =
  | 'applied'
  | 'unchanged'
  | 'duplicate'
  | 'stale'
  | 'superseded'
  | 'tie_settled_by_read'
  | 'line_pays_twice';

/** One line of an entitlement's history: what happened, what the rules decided, before and after. */
export interface HistoryEntry {
  /** When the kit recorded it (ISO 8601), by the real clock. */
  readonly recordedAt: string;
  readonly accountKey: string;
  readonly productUid: string;
  readonly source: HistorySource;
  readonly decision: HistoryDecision;
  /** The event's name (`payment.succeeded`…), or the read's (`subscription.read`, `payment.read`). */
  readonly eventName: string | null;
  /** A webhook's de-duplication key (the ledger's). */
  readonly eventKey: string | null;
  /** When the event happened, or when the read was sent. */
  readonly occurredAt: string | null;
  readonly paymentUid: string | null;
  readonly subscriptionUid: string | null;
  /** null: there was no entitlement (before), or none was written (after). */
  readonly statusBefore: EntitlementStatus | null;
  readonly statusAfter: EntitlementStatus | null;
  /** CONSUMABLE: units left before and after; null for other types. */
  readonly unitsBefore: number | null;
  readonly unitsAfter: number | null;
  /**
   * The phone line the entry is about, on the entries that name one (`line_pays_twice`); absent
   * on the others. A store that keeps no line drops it: the entry's subscriptionUid still says which.
   */
  readonly subscriberUid?: string | null;
}

export interface HistoryQuery {
  /** This account's entries; omitted, everyone's (an operations page's "recent" list). */
  accountKey?: string | undefined;
  /** Only this product's entries. */
  productUid?: string | undefined;
  /** At most this many, newest first. */
  limit: number;
}

/**
 * An entitlement's history, kept beside the store: every change the kit makes, appended. Optional
 * in the store contract: the kit records history when the store has these methods, and
 * `runHistoryConformance` from `@dcbkit/core/store` checks them.
 */
export interface HistoryStore {
  /** Appends one entry. Entries are never changed once written. */
  appendHistory(entry: HistoryEntry): Promise<void>;
  /** The account's entries (of one product, when given; everyone's without an account), newest first: the last appended first. */
  listHistory(query: HistoryQuery): Promise<HistoryEntry[]>;
  /** Removes the entries recorded before `before`; resolves to how many were removed. */
  pruneHistory(before: Date): Promise<number>;
}

/** True when the store keeps history (it has the three HistoryStore methods). */
export function isHistoryStore<S extends object>(store: S): store is S & HistoryStore {
  const candidate = store as Partial<HistoryStore>;
  return (
    typeof candidate.appendHistory === 'function' &&
    typeof candidate.listHistory === 'function' &&
    typeof candidate.pruneHistory === 'function'
  );
}
