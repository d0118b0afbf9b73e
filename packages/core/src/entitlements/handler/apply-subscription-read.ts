import type { Subscription, SubscriptionStatus } from '../../schemas/subscription.js';
import type { WebhookEvent, WebhookEventName } from '../../schemas/webhook-event.js';
import type { Entitlement } from '../entitlement.js';
import type { Offers } from '../offers/define-offers.js';
import { decide } from '../rules/decide.js';
import type { EntitlementStore } from '../store/entitlement-store.js';

/** The event the service sends when a subscription reaches this status. */
const EVENT_FOR_STATUS: Record<SubscriptionStatus, WebhookEventName> = {
  TRIALING: 'subscription.updated',
  ACTIVE: 'subscription.updated',
  PRE_CANCELED: 'subscription.updated',
  IN_GRACE: 'entitlement.updated',
  SUSPENDED: 'subscription.suspended',
  CANCELED: 'subscription.canceled',
  EXPIRED: 'subscription.expired',
};

export interface ApplySubscriptionReadOptions {
  store: EntitlementStore;
  offers: Offers;
  now?: () => Date;
}

/**
 * Applies a subscription as the API answered it (after a cancel or a resume, say) to the
 * entitlement that holds it, so the partner's pages are right before the webhook lands. The read
 * goes through the same rules as the event the service sends for it, stamped with the time of
 * the read: the webhook that follows is then no newer, and changes nothing more.
 * Resolves to undefined when no entitlement holds this subscription.
 *
 * @example
 * const subscription = await client.subscriptions.cancel(uid, { when: 'PERIOD_END' });
 * await applySubscriptionRead(subscription, { store, offers });
 */
export async function applySubscriptionRead(
  subscription: Subscription,
  { store, offers, now = () => new Date() }: ApplySubscriptionReadOptions,
): Promise<Entitlement | undefined> {
  const held = await store.findBySubscriptionUid(subscription.subscriptionUid);
  if (held === undefined) return undefined;
  const offer = offers.get(subscription.offerUid) ?? offers.get(held.offerUid);
  if (offer === undefined) return held;
  const event: WebhookEvent = {
    event: EVENT_FOR_STATUS[subscription.status],
    occurredAt: now().toISOString(),
    productUid: subscription.productUid,
    offerUid: subscription.offerUid,
    subscriberUid: subscription.subscriberUid,
    subscriptionUid: subscription.subscriptionUid,
    subscriptionStatus: subscription.status,
    currentPeriodEnd: subscription.currentPeriodEnd,
    cancelAt: subscription.cancelAt,
    ...(subscription.trialEndsAt ? { trialEndsAt: subscription.trialEndsAt } : {}),
  };
  const key = { accountKey: held.accountKey, productUid: held.productUid };
  return store.update(key.accountKey, key.productUid, (current) => decide(event, current, offer, key));
}
