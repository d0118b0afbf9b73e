import { type ApplyOutcome, entitlementKeyOfEvent } from '../apply/apply-event.js';
import { eventDecision, historyEntryOf } from '../apply/history-entry.js';
import type { DcbLogger } from '../observability/logger.js';
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
  const { accountKey: account, previous, entitlement } = applied;
  const held =
    entitlement ??
    previous ??
    (account !== undefined && event.productUid !== undefined
      ? { accountKey: account, productUid: event.productUid }
      : undefined);
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
