import type { Money, WebhookEvent, WebhookEventName } from '@dcbkit/core';
import type { PaymentRecord } from './payment-record.js';
import { isTrialRunning, type SubscriptionRecord } from './subscription-record.js';

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

/** What a scheduled charge moved: on renewals, trial conversions and grace. */
export interface ChargeFields {
  /** Only when money moved for this event: each collected charge has its own order. */
  orderId?: string;
  amountCollected: Money;
  periodOutstanding: Money;
}

/**
 * An event in a subscription's life after its first payment. It names the first payment (whose
 * status stays SUCCEEDED) and echoes its metadata, so a partner finds the account it belongs to.
 */
export function subscriptionEventPayload(
  event: WebhookEventName,
  subscription: SubscriptionRecord,
  occurredAt: Date,
  charge?: ChargeFields,
): WebhookEvent {
  const { payment, offer } = subscription;
  return {
    event,
    paymentUid: payment.paymentUid,
    status: payment.status,
    ...(charge?.orderId !== undefined ? { orderId: charge.orderId } : {}),
    productUid: offer.productUid,
    offerUid: offer.offerUid,
    subscriberUid: subscription.subscriberUid,
    ...subscriptionFields(subscription),
    ...(charge
      ? { amountCollected: charge.amountCollected, periodOutstanding: charge.periodOutstanding }
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
    ...(isTrialRunning(subscription) && subscription.trialEndsAt
      ? { trialEndsAt: subscription.trialEndsAt.toISOString() }
      : {}),
  };
}
