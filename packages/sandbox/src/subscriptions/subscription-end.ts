import type { EndedStatus, SubscriptionRecord } from '../records/subscription-record.js';
import type { SubscriptionLife } from './subscription-life.js';

export type EndEvent =
  | 'subscription.suspended'
  | 'subscription.failed'
  | 'subscription.canceled'
  | 'subscription.expired';

/** Ends the subscription for good: no task left, the event said, then access revoked. */
export function endSubscription(
  life: SubscriptionLife,
  subscription: SubscriptionRecord,
  status: EndedStatus,
  event: EndEvent,
): void {
  life.tasks.drop(subscription.subscriptionUid);
  subscription.status = status;
  // No cancellation is scheduled once it has ended (the spec's cancelAt); endedAt keeps the moment.
  subscription.cancelAt = null;
  subscription.grace = null;
  subscription.endedAt = life.clock.now();
  life.log(`subscription ${subscription.subscriptionUid} ${status}`);
  life.emit(subscription, event);
  life.emit(subscription, 'entitlement.revoked');
}

/** Ended for want of payment: "failed" when no period was ever paid (a trial that never converted). */
export function suspend(life: SubscriptionLife, subscription: SubscriptionRecord): void {
  const event = subscription.paidPeriods === 0 ? 'subscription.failed' : 'subscription.suspended';
  endSubscription(life, subscription, 'SUSPENDED', event);
}
