import type { Subscription, SubscriptionStatus } from '@dcbkit/core';
import type { SandboxOffer } from '../config/config-schema.js';

/** A subscription as the sandbox stores it. */
export interface SubscriptionRecord {
  subscriptionUid: string;
  clientId: string;
  offer: SandboxOffer;
  subscriberUid: string;
  /** The payment that started it. */
  paymentUid: string;
  status: SubscriptionStatus;
  createdAt: Date;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  trialEndsAt: Date | null;
  cancelAt: Date | null;
}

/** The Subscription resource of the spec; `trialEndsAt` only while trialing. */
export function toSubscriptionView(record: SubscriptionRecord): Subscription {
  return {
    subscriptionUid: record.subscriptionUid,
    status: record.status,
    productUid: record.offer.productUid,
    offerUid: record.offer.offerUid,
    subscriberUid: record.subscriberUid,
    currentPeriodEnd: record.currentPeriodEnd.toISOString(),
    cancelAt: record.cancelAt ? record.cancelAt.toISOString() : null,
    ...(record.status === 'TRIALING' && record.trialEndsAt
      ? { trialEndsAt: record.trialEndsAt.toISOString() }
      : {}),
  };
}
