import type { Subscription, SubscriptionStatus } from '../schemas/subscription.js';
import type { WebhookEvent, WebhookEventName } from '../schemas/webhook-event.js';

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

/**
 * A subscription read as the event the service sends for its status, stamped `observedAt`: the
 * time the read was sent, which is no later than the moment its facts were true. Decide it with
 * `{ source: 'read' }` so that it never outranks a real event.
 */
export function subscriptionReadEvent(subscription: Subscription, observedAt: Date): WebhookEvent {
  return {
    event: EVENT_FOR_STATUS[subscription.status],
    occurredAt: observedAt.toISOString(),
    productUid: subscription.productUid,
    offerUid: subscription.offerUid,
    subscriberUid: subscription.subscriberUid,
    subscriptionUid: subscription.subscriptionUid,
    subscriptionStatus: subscription.status,
    currentPeriodEnd: subscription.currentPeriodEnd,
    cancelAt: subscription.cancelAt,
    ...(subscription.trialEndsAt ? { trialEndsAt: subscription.trialEndsAt } : {}),
  };
}
