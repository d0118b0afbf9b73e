import { STATUS_MEANINGS } from '../access/event-meaning.js';
import type { Subscription } from '../schemas/subscription.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';

/**
 * A subscription read as the event the service sends for its status, stamped `observedAt`: the
 * time the read was sent, which is no later than the moment its facts were true. Decide it with
 * `{ source: 'read' }` so that it never outranks a real event.
 */
export function subscriptionReadEvent(subscription: Subscription, observedAt: Date): WebhookEvent {
  return {
    event: STATUS_MEANINGS[subscription.status].readAs,
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
