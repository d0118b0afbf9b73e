import { decide } from '../access/decide.js';
import { metricEntriesOf } from '../metrics/metric-entries-of.js';
import type { Offers } from '../offers/define-offers.js';
import type { Subscription } from '../schemas/subscription.js';
import type { EntitlementStore, EntitlementUpdate } from '../store/entitlement-store.js';
import type { HistorySource } from '../store/history-store.js';
import { historyEntryOf, type RecordHistory, readDecision } from './history-entry.js';
import type { RecordFacts } from './record-facts.js';
import { subscriptionReadEvent } from './subscription-read-event.js';

export interface ApplySubscriptionReadOptions {
  store: EntitlementStore;
  offers: Offers;
  /**
   * When the request that returned `subscription` was sent (take the time before calling the
   * client). The read's facts were true no earlier than that, so events that happened after it
   * still win. Default: `now()`, which is later than that: pass it.
   */
  observedAt?: Date;
  now?: () => Date;
  /** Appends the change to the entitlement's history (the kit wires it when its store keeps one). */
  recordHistory?: RecordHistory | undefined;
  /** What read the subscription, for the history. Default `subscription_action`. */
  historySource?: HistorySource;
  /**
   * Records the business view's facts of the read (the kit wires it). Required, even when
   * undefined: a read that changes an entitlement without telling its facts (a cancel now, say)
   * leaves the subscriber counted live for good.
   */
  recordFacts: RecordFacts | undefined;
}

/**
 * Applies a subscription as the API answered it (after a cancel or a resume, say) to the
 * entitlement that holds it, so the partner's pages are right before the webhook lands. The read
 * goes through the same rules as the event the service sends for it, as a read: it holds the
 * status until the events land but never outranks one (an event newer than `observedAt` wins, and
 * the event the read saw takes the record over), so the webhooks end in the state they give alone.
 * Resolves to what the store did, or undefined when no entitlement holds this subscription.
 *
 * @example
 * const observedAt = new Date();
 * const subscription = await client.subscriptions.cancel(uid, { when: 'PERIOD_END' });
 * await applySubscriptionRead(subscription, { store, offers, observedAt });
 */
export async function applySubscriptionRead(
  subscription: Subscription,
  {
    store,
    offers,
    observedAt,
    now = () => new Date(),
    recordHistory,
    historySource,
    recordFacts,
  }: ApplySubscriptionReadOptions,
): Promise<EntitlementUpdate | undefined> {
  const held = await store.findBySubscriptionUid(subscription.subscriptionUid);
  if (held === undefined) return undefined;
  const offer = offers.get(subscription.offerUid) ?? offers.get(held.offerUid);
  if (offer === undefined) return { previous: held, next: held, wrote: false };
  const event = subscriptionReadEvent(subscription, observedAt ?? now());
  const key = { accountKey: held.accountKey, productUid: held.productUid };
  const update = await store.update(key.accountKey, key.productUid, (current) =>
    decide(event, current, offer, key, { source: 'read' }),
  );
  await recordFacts?.(
    metricEntriesOf({ event, source: 'read', offer, held: update.previous, accountKey: key.accountKey }),
  );
  await recordHistory?.(
    historyEntryOf({
      key,
      source: historySource ?? 'subscription_action',
      decision: readDecision(update),
      update,
      event: {
        event: 'subscription.read',
        occurredAt: event.occurredAt,
        subscriptionUid: subscription.subscriptionUid,
      },
    }),
  );
  return update;
}
