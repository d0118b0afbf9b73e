import type { WebhookEvent, WebhookEventName } from '@dcbkit/core';
import type { PaymentRecord } from '../payments/payment-record.js';
import type { SubscriptionRecord } from '../subscriptions/subscription-record.js';

/**
 * An event about a payment (and the subscription it started, if any), with the fields the spec
 * lists: the payment's status at the time, orderId once money moved, the echoed metadata.
 */
export function paymentEventPayload(
  event: WebhookEventName,
  payment: PaymentRecord,
  occurredAt: Date,
  subscription?: SubscriptionRecord,
): WebhookEvent {
  return {
    event,
    paymentUid: payment.paymentUid,
    status: payment.status,
    ...(payment.orderId !== undefined ? { orderId: payment.orderId } : {}),
    productUid: payment.offer.productUid,
    offerUid: payment.offer.offerUid,
    ...(payment.subscriberUid !== undefined ? { subscriberUid: payment.subscriberUid } : {}),
    ...(subscription ? subscriptionFields(subscription) : {}),
    ...(!subscription && payment.subscriptionUid !== undefined
      ? { subscriptionUid: payment.subscriptionUid }
      : {}),
    metadata: payment.metadata,
    occurredAt: occurredAt.toISOString(),
  };
}

function subscriptionFields(subscription: SubscriptionRecord): Partial<WebhookEvent> {
  return {
    subscriptionUid: subscription.subscriptionUid,
    subscriptionStatus: subscription.status,
    currentPeriodEnd: subscription.currentPeriodEnd.toISOString(),
    cancelAt: subscription.cancelAt ? subscription.cancelAt.toISOString() : null,
    ...(subscription.status === 'TRIALING' && subscription.trialEndsAt
      ? { trialEndsAt: subscription.trialEndsAt.toISOString() }
      : {}),
  };
}
