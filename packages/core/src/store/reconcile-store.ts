import type { DueCheck } from '../access/reconcile-deadline.js';
import type { Entitlement, EntitlementKey } from '../schemas/entitlement.js';

/**
 * The bookkeeping reconciliation keeps beside the entitlements (docs/reconcile.md): which are due
 * for a read, when a read last confirmed one, the payments a return page left pending, and a lock
 * so that one instance at a time reconciles. A store that implements it beside EntitlementStore
 * can be reconciled; check it with `runReconcileConformance` from `@dcbkit/core/store`.
 */
export interface ReconcileStore {
  /**
   * The entitlements `reconcile` should confirm with a read: exactly those for which core's pure
   * `dueReason(entitlement, reconciledAt, query)` says a reason, in (accountKey, productUid) order
   * (JavaScript's string order, `COLLATE "C"` in SQL), after `query.after`, at most `query.limit`.
   */
  listDueEntitlements(query: DueEntitlementsQuery): Promise<Entitlement[]>;
  /**
   * Optional, what `reconcile` pages with when the store has it: the same entitlements as
   * `listDueEntitlements` over a whole pass, each once, in an order of the store's choosing (a SQL
   * store walks its due indexes in their own order, so that a page costs the same however many
   * are due), at most `query.limit` a page. `cursor` is what the previous page answered (absent
   * for the first); a page whose `cursor` is undefined is the last.
   */
  listDuePage?(query: DuePageQuery): Promise<DuePage>;
  /** Remembers that a reconciliation read confirmed this entitlement at `at` (see dueReason's `reconciledAt`). */
  markReconciled(key: EntitlementKey, at: Date): Promise<void>;
  /** Remembers a payment a return page found still pending (idempotent: a second call keeps the first record). */
  recordPendingPayment(payment: PendingPayment): Promise<void>;
  /**
   * The pending payments not ended (`ended` unset), in paymentUid order, after `query.after`, at
   * most `query.limit`: what reconciliation reads.
   */
  listPendingPayments(query: PendingPaymentsQuery): Promise<PendingPayment[]>;
  /**
   * One account's pending payments, in paymentUid order (an account has a few at most), those
   * that ended unpaid (`endPendingPayment`) included, with their `ended`.
   */
  listPendingPaymentsOfAccount(accountKey: string): Promise<PendingPayment[]>;
  /** Forgets a pending payment (settled, or given up); nothing happens when it is unknown. */
  removePendingPayment(paymentUid: string): Promise<void>;
  /**
   * Optional (a store without it forgets such payments instead): keeps a payment that ended
   * (paid or not), with how it ended, so that the account's page and `kit.explain` can say why and
   * a complaint's record (`kit.checkoutRecord`) shows what the shop showed for each. It
   * leaves `listPendingPayments`; `listPendingPaymentsOfAccount` still lists it. A later call
   * replaces the status, keeps the first `at`, and keeps the earlier `failureCode` when the later
   * has none. Nothing happens when the payment is unknown.
   */
  endPendingPayment?(paymentUid: string, ending: PaymentEnding): Promise<void>;
  /**
   * Optional, beside `endPendingPayment` (a store without it keeps ended payments for ever):
   * forgets the payments that ended (`ended.at`) before `endedBefore`, paid or not; resolves to how
   * many it removed. Payments not ended are never removed, however old: reconciliation still reads
   * them. The running reconciler calls it after each run with the history's retention.
   */
  pruneEndedPayments?(endedBefore: Date): Promise<number>;
  /**
   * Takes the lock `name` if no one holds it (across instances sharing the store): resolves to the
   * function that releases it, or undefined when another holder has it. Never waits.
   */
  tryLock(name: string): Promise<ReleaseLock | undefined>;
}

/** The lock every reconciler of a store takes, so that one instance at a time reads. */
export const RECONCILE_LOCK = 'dcbkit:reconcile';

const RECONCILE_METHODS = [
  'listDueEntitlements',
  'markReconciled',
  'recordPendingPayment',
  'listPendingPayments',
  'listPendingPaymentsOfAccount',
  'removePendingPayment',
  'tryLock',
] as const satisfies readonly (keyof ReconcileStore)[];

/** The ReconcileStore methods the object lacks (none: it can be reconciled). */
export function missingReconcileMethods(store: object): string[] {
  return RECONCILE_METHODS.filter(
    (method) => typeof (store as Record<string, unknown>)[method] !== 'function',
  );
}

/** True when the store keeps reconciliation's bookkeeping too (both built-in stores do). */
export function isReconcileStore<S extends object>(store: S): store is S & ReconcileStore {
  return missingReconcileMethods(store).length === 0;
}

/** What listDueEntitlements is asked (see dueReason for what due means). */
export interface DueEntitlementsQuery extends DueCheck {
  /** The key of the last entitlement of the previous page. */
  after?: EntitlementKey;
  limit: number;
}

/** What listDuePage is asked: `cursor`, opaque, as the previous page answered it. */
export interface DuePageQuery extends DueCheck {
  cursor?: string | undefined;
  limit: number;
}

/** A page of the due listing, and where the next one starts (undefined: this was the last). */
export interface DuePage {
  entitlements: Entitlement[];
  cursor: string | undefined;
}

/**
 * A payment not settled yet: recorded when the checkout created it (and by a return page that found
 * it open), forgotten once it settles. Reconciliation reads it until then; the checkout route
 * continues it rather than start a second payment for the product.
 */
export interface PendingPayment {
  readonly paymentUid: string;
  readonly accountKey: string;
  readonly productUid: string;
  readonly offerUid: string;
  /** When it was recorded (ISO 8601). */
  readonly recordedAt: string;
  /** Where the subscriber continues it; absent when it was recorded without one. */
  readonly checkoutUrl?: string | undefined;
  /** When the service expires it if untouched (ISO 8601); absent when unknown. */
  readonly expiresAt?: string | undefined;
  /**
   * Set once it ended, by a store that keeps ended payments (`endPendingPayment`): how, and why
   * when the service said. SUCCEEDED ones are kept too, for the record of what the shop showed.
   */
  readonly ended?: PaymentEnding | undefined;
  /** What the shop's page showed for the offer before the checkout started; absent when it did not say. */
  readonly shown?: ShownOffer | undefined;
}

/**
 * The offer as the shop rendered it on the page the subscriber started the checkout from, in the
 * words and language of that page (the spec's partner obligation: show name, price and period
 * before checkout). Nothing about the subscriber: the partner never receives the phone number.
 */
export interface ShownOffer {
  readonly name: string;
  /** The price text as shown, e.g. "4.500 TND". */
  readonly price: string;
  /** The billing period as shown ("per month", "one-time"); absent when the page showed none. */
  readonly period?: string | undefined;
  /** The page's language (BCP 47, e.g. "fr"). */
  readonly language: string;
  /** The free trial the page offered; absent when it showed none (no trial, or one already used). */
  readonly trial?: ShownTrial | undefined;
  /** When the checkout was started from it (ISO 8601). */
  readonly at: string;
}

/**
 * A free trial as the page showed it before consent: its length, and the date of the first charge
 * in the page's words ("21 December 2026"), since that date is what a complaint turns on.
 */
export interface ShownTrial {
  /** The trial's length in days, as shown. */
  readonly days: number;
  /** The first charge's date as shown, e.g. "21 December 2026". */
  readonly firstCharge: string;
}

/** A checkout that did not finish, with how it ended (`ended` always set, never SUCCEEDED). */
export type EndedPayment = PendingPayment & { readonly ended: PaymentEnding };

/** How a checkout ended: paid, or not (and then why). */
export interface PaymentEnding {
  readonly status: 'SUCCEEDED' | 'FAILED' | 'EXPIRED' | 'CANCELED';
  /**
   * The service's code of why, when its read gave one (`failureCode`: PAY-101, PAY-103, SUB-108,
   * CAT-109, SBR-102, SBR-104, RSK-101); absent when it did not say.
   */
  readonly failureCode?: string | undefined;
  /** When the kit learned it ended (ISO 8601). */
  readonly at: string;
  /**
   * The line that consented (the service's `subscriberUid`, never the number), when the service
   * said: a complaint about a line finds that line's payments by it (`kit.checkoutRecord`).
   */
  readonly subscriberUid?: string | undefined;
}

export interface PendingPaymentsQuery {
  /** The paymentUid of the last payment of the previous page. */
  after?: string;
  limit: number;
}

/** Releases a lock taken with tryLock; releasing twice does nothing. */
export type ReleaseLock = () => Promise<void>;
