import { type ApplyOutcome, entitlementKeyOfEvent } from '../apply/apply-event.js';
import { eventDecision, historyEntryOf } from '../apply/history-entry.js';
import type { DcbLogger } from '../observability/logger.js';
import type { EntitlementKey } from '../schemas/entitlement.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import type { HistoryEntry } from '../store/history-store.js';
import type { WebhookContext } from './webhook-context.js';

type Applied = Extract<ApplyOutcome, { outcome: 'applied' }>;

/**
 * The history entry of an applied event. An event that changed nothing is history too: a failed
 * payment says why there is no access. Undefined when the event names no entitlement at all.
 */
export function webhookHistoryEntry(
  event: WebhookEvent,
  key: string,
  applied: Applied,
): Omit<HistoryEntry, 'recordedAt'> | undefined {
  const { previous, entitlement } = applied;
  const held = appliedTo(event, applied);
  if (held === undefined) return undefined;
  const update = { previous, next: entitlement, wrote: false };
  return historyEntryOf({
    key: { accountKey: held.accountKey, productUid: held.productUid },
    source: 'webhook',
    decision: applied.changesAccess ? eventDecision(event, update, applied.tieSettled) : 'unchanged',
    update,
    event,
    eventKey: key,
  });
}

/** The entitlement an applied event is about: its record, or its account and product when none is held. */
export function appliedTo(event: WebhookEvent, applied: Applied): EntitlementKey | undefined {
  const { accountKey, previous, entitlement } = applied;
  const held = entitlement ?? previous;
  if (held !== undefined) return { accountKey: held.accountKey, productUid: held.productUid };
  return accountKey !== undefined && event.productUid !== undefined
    ? { accountKey, productUid: event.productUid }
    : undefined;
}

/** The debug line of a processed event, from its history entry. */
export function logProcessed(
  logger: DcbLogger,
  event: WebhookEvent,
  entry: Omit<HistoryEntry, 'recordedAt'>,
): void {
  logger.debug?.(
    {
      event: event.event,
      accountKey: entry.accountKey,
      productUid: entry.productUid,
      decision: entry.decision,
      statusBefore: entry.statusBefore,
      statusAfter: entry.statusAfter,
    },
    'dcbkit: webhook processed',
  );
}

/** A duplicate delivery, in the history of the entitlement it names (when one can be named). */
export async function recordDuplicate(
  context: WebhookContext,
  event: WebhookEvent,
  key: string,
): Promise<void> {
  const { recordHistory, store } = context;
  if (recordHistory === undefined) return;
  const target = await entitlementKeyOfEvent(event, context.apply);
  if (target === undefined) return;
  const entitlement = await store.get(target.accountKey, target.productUid);
  await recordHistory(
    historyEntryOf({
      key: target,
      source: 'webhook',
      decision: 'duplicate',
      update: { previous: entitlement, next: entitlement },
      event,
      eventKey: key,
    }),
  );
}
