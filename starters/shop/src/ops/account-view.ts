import type { AccessExplanation, AccessReason, OfferDefinition, Offers } from '@dcbkit/core';
import type { HistoryEntry, ShownOffer } from '@dcbkit/core/store';
import { paymentReason } from '../payment-reason.js';
import { type HistoryRow, historyRows, stateText, type Words } from './history-rows.js';

/** One product of the account, as the operator's account page shows it. */
export interface ProductView {
  productUid: string;
  offer: OfferDefinition | undefined;
  status: string;
  hasAccess: boolean;
  /** Why access is on or off, in words. */
  reason: string;
  /** The event that set the status, and when, in words; undefined when none did. */
  lastEvent: LastEventView | undefined;
  subscriptionUid: string | null;
  /** After "read from the service": what the service says, and whether it differs from the store. */
  service: { status: string | undefined; drift: boolean; error: string | undefined } | undefined;
  history: HistoryRow[];
}

export interface AccountView {
  accountKey: string;
  products: ProductView[];
  pending: Array<{
    paymentUid: string;
    offer: OfferDefinition | undefined;
    recordedAt: string;
    expiresAt: string;
    /** What the shop showed before the checkout, as one line; undefined when it was not recorded. */
    shown: string | undefined;
  }>;
  /** Checkouts that ended unpaid, newest first, with why in words and the service's code. */
  ended: Array<{
    paymentUid: string;
    offer: OfferDefinition | undefined;
    recordedAt: string;
    endedAt: string;
    status: string;
    reason: string;
    failureCode: string | undefined;
    shown: string | undefined;
  }>;
  /**
   * The phone lines (the service's `subscriberUid`) the account paid from, as its entitlements and
   * ended checkouts name them, sorted: each links to its line page (who else holds what on it).
   */
  lines: string[];
  /** False when the store keeps no history: the tables would always be empty. */
  historyKept: boolean;
  /** True when the service was read (`kit.explain` with `read: true`). */
  read: boolean;
}

/** The event behind the status: its bare name, and when it happened (or was read) in words. */
export interface LastEventView {
  /** The event's name (`payment.succeeded`), without the `read:` a server-side read adds. */
  name: string;
  /** "December 4…", or for a read "read from the service on December 4…". */
  when: string;
}

/**
 * `lastEventName` and `lastEventAt` in words. A read (`read:<event>`) says so; a read that proves
 * no time (a payment read: lastEventAt null) is dated by when the kit applied it, from the history.
 */
export function lastEventView(
  reason: AccessReason,
  history: readonly HistoryEntry[],
  words: Words,
): LastEventView | undefined {
  const { lastEventName, lastEventAt } = reason;
  if (!lastEventName) return undefined;
  const read = lastEventName.startsWith(READ_PREFIX);
  const name = read ? lastEventName.slice(READ_PREFIX.length) : lastEventName;
  const at = lastEventAt ?? history.find((entry) => entry.decision === 'applied')?.recordedAt ?? null;
  if (!read) return { name, when: words.date(at) };
  return {
    name,
    when: at ? words.t('ops.lastEvent.read', { date: words.date(at) }) : words.t('ops.lastEvent.readUndated'),
  };
}

const READ_PREFIX = 'read:';

/** The reasons whose words name a date; an entitlement without that date gets their `.undated` words. */
const DATED_REASONS: ReadonlySet<string> = new Set(['trialing', 'canceling', 'ended']);

/** The reason code of hasAccess in words (locales: ops.reason.*), with its date or units. */
export function reasonText(reason: AccessReason, words: Words): string {
  const undated = reason.until === null && DATED_REASONS.has(reason.code);
  return words.t(`ops.reason.${reason.code}${undated ? '.undated' : ''}`, {
    until: words.date(reason.until),
    units: reason.units ?? 0,
  });
}

/** `kit.explain(accountKey)` as the operator's account page shows it, in the page's language. */
export function accountView(explanation: AccessExplanation, words: Words, offers: Offers): AccountView {
  let read = false;
  const products = explanation.products.map((product): ProductView => {
    const { entitlement, reason, service } = product;
    if (service !== undefined) read = true;
    return {
      productUid: product.productUid,
      offer: product.offer,
      status: stateText(words, entitlement?.status ?? null, null),
      hasAccess: reason.hasAccess,
      reason: reasonText(reason, words),
      lastEvent: lastEventView(reason, product.history, words),
      subscriptionUid: entitlement?.subscriptionUid ?? null,
      service:
        service === undefined
          ? undefined
          : {
              status: service.status === undefined ? undefined : stateText(words, service.status, null),
              drift: service.drift,
              error: service.error,
            },
      history: historyRows(product.history, words, offers),
    };
  });
  return {
    accountKey: explanation.accountKey,
    products,
    pending: explanation.pendingPayments.map((payment) => ({
      paymentUid: payment.paymentUid,
      offer: offers.get(payment.offerUid),
      recordedAt: payment.recordedAt,
      expiresAt: payment.expiresAt ?? '',
      shown: shownLine(payment.shown, words),
    })),
    ended: explanation.endedPayments.map((payment) => ({
      paymentUid: payment.paymentUid,
      offer: offers.get(payment.offerUid),
      recordedAt: payment.recordedAt,
      endedAt: payment.ended.at,
      status: words.t(`ops.ended.${payment.ended.status}`),
      reason: words.t(`return.reason.${paymentReason(payment.ended.status, payment.ended.failureCode)}`),
      failureCode: payment.ended.failureCode,
      shown: shownLine(payment.shown, words),
    })),
    lines: linesOf(explanation),
    historyKept: explanation.historyKept,
    read,
  };
}

/** Every line the account's entitlements and ended checkouts name, once each, sorted. */
function linesOf(explanation: AccessExplanation): string[] {
  const lines = new Set<string>();
  for (const { entitlement } of explanation.products) {
    if (entitlement?.subscriberUid) lines.add(entitlement.subscriberUid);
  }
  for (const payment of explanation.endedPayments) {
    if (payment.ended.subscriberUid) lines.add(payment.ended.subscriberUid);
  }
  return [...lines].sort();
}

/**
 * "Full unlock · 15.000 TND · One-time (en)": the offer as the page showed it, in the page's own
 * words; then the free trial it offered, if any ("free trial shown: 14 days, first charge on …"),
 * the first charge's date as the page wrote it: what a complaint about a charge turns on.
 */
function shownLine(shown: ShownOffer | undefined, words: Words): string | undefined {
  if (shown === undefined) return undefined;
  const offer = `${[shown.name, shown.price, shown.period].filter(Boolean).join(' · ')} (${shown.language})`;
  if (shown.trial === undefined) return offer;
  return `${offer} · ${words.t('ops.account.shownTrial', { days: shown.trial.days, date: shown.trial.firstCharge })}`;
}
