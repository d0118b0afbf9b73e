import type { EntitlementStatus, OfferDefinition, Offers } from '@dcbkit/core';
import type { HistoryEntry } from '@dcbkit/core/store';
import type { PageContext } from '../views.js';

/** What the operations pages need of the page's language: its messages and its dates. */
export type Words = Pick<PageContext, 't' | 'date'>;

/** One line of a history table: when, what, what the rules made of it, before → after. */
export interface HistoryRow {
  recordedAt: string;
  accountKey: string;
  productUid: string;
  offer: OfferDefinition | undefined;
  source: string;
  event: string;
  decision: string;
  /** The decision's code, for styling (`applied` stands out). */
  decisionCode: HistoryEntry['decision'];
  change: string;
}

/** An entitlement's state in words: its status, and a consumable's units left. `null`: none. */
export function stateText(words: Words, status: EntitlementStatus | null, units: number | null): string {
  if (status === null) return words.t('ops.status.none');
  const name = words.t(`status.${status}`);
  return units === null ? name : words.t('ops.units', { status: name, units });
}

/** "before → after", with the arrow of the page's direction. */
export function changeText(
  words: Words,
  before: [EntitlementStatus | null, number | null],
  after: [EntitlementStatus | null, number | null],
): string {
  return words.t('ops.change', { before: stateText(words, ...before), after: stateText(words, ...after) });
}

export function historyRows(entries: readonly HistoryEntry[], words: Words, offers: Offers): HistoryRow[] {
  return entries.map((entry) => ({
    recordedAt: entry.recordedAt,
    accountKey: entry.accountKey,
    productUid: entry.productUid,
    offer: offers.forProduct(entry.productUid)[0],
    source: words.t(`ops.source.${entry.source}`),
    event: entry.eventName ?? '',
    decision: words.t(`ops.decision.${entry.decision}`),
    decisionCode: entry.decision,
    change: changeText(words, [entry.statusBefore, entry.unitsBefore], [entry.statusAfter, entry.unitsAfter]),
  }));
}
