import { availableUnits } from '../access/has-access.js';
import type { Entitlement, EntitlementKey } from '../schemas/entitlement.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import type { EntitlementUpdate } from '../store/entitlement-store.js';
import type { HistoryDecision, HistoryEntry, HistorySource, HistoryStore } from '../store/history-store.js';

/** Appends one entry to the store's history; the kit's, or a no-op when the store keeps none. */
export type RecordHistory = (entry: Omit<HistoryEntry, 'recordedAt'>) => Promise<void>;

/**
 * The recorder for a store, or undefined when `history` is. `recordedAt` is always the real time,
 * whatever clock the rules decide by (a test's sandbox clock): retention prunes by it.
 */
export function historyRecorder(history: HistoryStore | undefined): RecordHistory | undefined {
  if (history === undefined) return undefined;
  const clock = isoClock();
  return (entry) => {
    // Stamped in place, not copied: every entry here is fresh from historyEntryOf, and a copy of
    // its thirteen fields was a tenth of what recording an entry cost.
    (entry as { recordedAt?: string }).recordedAt = clock();
    return history.appendHistory(entry as HistoryEntry);
  };
}

/**
 * The time now as an ISO string, formatted once per millisecond: a busy receiver records many
 * entries in the same millisecond, and formatting was a tenth of what recording one cost.
 */
function isoClock(): () => string {
  let formattedAt = Number.NaN;
  let formatted = '';
  return () => {
    const now = Date.now();
    if (now !== formattedAt) {
      formattedAt = now;
      formatted = new Date(now).toISOString();
    }
    return formatted;
  };
}

/**
 * What the rules made of a webhook event, from what the store did with it: `applied` when the
 * event's status claim now stands (and it was not already there), `stale` when the held claim is
 * later, `superseded` when it is of the same instant and won by the order of steps, `unchanged`
 * when the entitlement already held this very event.
 */
export function eventDecision(
  event: WebhookEvent,
  update: EntitlementUpdate,
  tieSettled: boolean,
): HistoryDecision {
  const { previous, next } = update;
  if (next === undefined) return 'unchanged';
  const holdsEvent = next.lastEventName === event.event && sameInstant(next.lastEventAt, event.occurredAt);
  if (holdsEvent) {
    if (tieSettled) return 'tie_settled_by_read';
    const heldBefore =
      previous?.lastEventName === event.event && sameInstant(previous.lastEventAt, event.occurredAt);
    return heldBefore && !unitsChanged(previous, next) ? 'unchanged' : 'applied';
  }
  if (unitsChanged(previous, next)) return 'applied';
  const held = previous?.lastEventAt ?? null;
  if (held !== null && Date.parse(event.occurredAt) < Date.parse(held)) return 'stale';
  return tieSettled ? 'tie_settled_by_read' : 'superseded';
}

/** What a read (a payment, a subscription, a spent unit) did: `applied` when it changed the status or the units. */
export function readDecision(update: EntitlementUpdate): HistoryDecision {
  const { previous, next } = update;
  if (next === undefined) return 'unchanged';
  return previous?.status !== next.status || unitsChanged(previous, next) ? 'applied' : 'unchanged';
}

export interface ChangeDescription {
  key: EntitlementKey;
  source: HistorySource;
  decision: HistoryDecision;
  update: Pick<EntitlementUpdate, 'previous' | 'next'>;
  event?: Pick<WebhookEvent, 'event' | 'occurredAt' | 'paymentUid' | 'subscriptionUid'> | undefined;
  eventKey?: string | undefined;
}

/** The history entry of one change (without its recording time). */
export function historyEntryOf({
  key,
  source,
  decision,
  update,
  event,
  eventKey,
}: ChangeDescription): Omit<HistoryEntry, 'recordedAt'> {
  const { previous, next } = update;
  const consumable = (next ?? previous)?.type === 'CONSUMABLE';
  return {
    accountKey: key.accountKey,
    productUid: key.productUid,
    source,
    decision,
    eventName: event?.event ?? null,
    eventKey: eventKey ?? null,
    occurredAt: event?.occurredAt ?? null,
    paymentUid: event?.paymentUid ?? null,
    subscriptionUid: event?.subscriptionUid ?? next?.subscriptionUid ?? previous?.subscriptionUid ?? null,
    statusBefore: previous?.status ?? null,
    statusAfter: next?.status ?? null,
    unitsBefore: consumable ? availableUnits(previous) : null,
    unitsAfter: consumable ? availableUnits(next) : null,
  };
}

function sameInstant(a: string | null, b: string): boolean {
  // Equal strings first: the usual case, and two date parses fewer per delivery.
  return a !== null && (a === b || Date.parse(a) === Date.parse(b));
}

function unitsChanged(previous: Entitlement | undefined, next: Entitlement): boolean {
  return (previous?.unitsBought ?? 0) !== next.unitsBought || (previous?.unitsUsed ?? 0) !== next.unitsUsed;
}
