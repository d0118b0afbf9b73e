import type { Money, Subscription, SubscriptionStatus } from '@dcbkit/core';
import type { SandboxOffer } from '../config/config-schema.js';
import type { ChargeOutcome } from '../operator/scheduled-charges.js';
import type { PaymentRecord } from './payment-record.js';

/** A charge the service ran by itself: a trial conversion, a renewal or a grace retry. */
export interface ScheduledCharge {
  /** Sandbox time of the charge. */
  at: string;
  /** 0 for the charge at the end of a trial or period, n for the n-th retry in grace. */
  attempt: number;
  amount: Money;
  collected: boolean;
  /** Why it was not collected. */
  code: 'PAY-101' | 'PAY-103' | null;
  /** Set when collected. */
  orderId: string | null;
}

/** A forced answer for the next scheduled charges, set at /sandbox/subscriptions/{uid}/renewal-outcome. */
export interface RenewalOverride {
  outcome: ChargeOutcome;
  /** Charges it still applies to; null for every charge from now on. */
  remaining: number | null;
}

/** A subscription as the sandbox stores it. */
export interface SubscriptionRecord {
  subscriptionUid: string;
  clientId: string;
  offer: SandboxOffer;
  subscriberUid: string;
  /** The first payment; its paymentUid and metadata go on every event of the subscription. */
  payment: PaymentRecord;
  status: SubscriptionStatus;
  createdAt: Date;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  /** When the free trial ends (or ended); null without a trial. */
  trialEndsAt: Date | null;
  /**
   * While PRE_CANCELED: when it ends. Null otherwise, an ended subscription's included: the spec's
   * "null when no cancellation is scheduled" (`endedAt` says when access ended).
   */
  cancelAt: Date | null;
  /**
   * While a renewal is unpaid: when grace began and how many retries have failed since. Set while
   * IN_GRACE, and kept through a PERIOD_END cancellation in grace and its withdrawal (which shows
   * ACTIVE while the retries go on).
   */
  grace: { startedAt: Date; failedRetries: number } | null;
  /** Periods paid for so far; 0 for a trial that has not converted. */
  paidPeriods: number;
  charges: ScheduledCharge[];
  renewalOverride: RenewalOverride | null;
  endedAt: Date | null;
}

/** The statuses in which access has ended: final, and refused by cancel (SUB-104) and resume (SUB-105). */
export type EndedStatus = Extract<SubscriptionStatus, 'SUSPENDED' | 'CANCELED' | 'EXPIRED'>;

export function hasEnded(status: SubscriptionStatus): status is EndedStatus {
  return status === 'SUSPENDED' || status === 'CANCELED' || status === 'EXPIRED';
}

/**
 * True while the free trial runs: no period paid yet, no charge failed, not ended. The status is
 * TRIALING, or PRE_CANCELED (cancelled at the trial's end); a resume gives TRIALING back, and the
 * trial still ends, with its first charge, at trialEndsAt. (A state file saved by an older sandbox
 * may hold ACTIVE for a resumed trial: still this trial.)
 */
export function isTrialRunning(record: SubscriptionRecord): boolean {
  return (
    record.trialEndsAt !== null &&
    record.paidPeriods === 0 &&
    record.grace === null &&
    !hasEnded(record.status)
  );
}

/** The Subscription resource of the spec; `trialEndsAt` only while the trial runs. */
export function toSubscriptionView(record: SubscriptionRecord): Subscription {
  return {
    subscriptionUid: record.subscriptionUid,
    status: record.status,
    productUid: record.offer.productUid,
    offerUid: record.offer.offerUid,
    subscriberUid: record.subscriberUid,
    currentPeriodEnd: record.currentPeriodEnd.toISOString(),
    cancelAt: record.cancelAt ? record.cancelAt.toISOString() : null,
    ...(isTrialRunning(record) && record.trialEndsAt
      ? { trialEndsAt: record.trialEndsAt.toISOString() }
      : {}),
  };
}

/** What /sandbox/subscriptions shows: the resource, plus who owns it and the charges run so far. */
export function toSubscriptionControlView(record: SubscriptionRecord) {
  return {
    ...toSubscriptionView(record),
    clientId: record.clientId,
    paymentUid: record.payment.paymentUid,
    createdAt: record.createdAt.toISOString(),
    currentPeriodStart: record.currentPeriodStart.toISOString(),
    endedAt: record.endedAt ? record.endedAt.toISOString() : null,
    renewalOverride: record.renewalOverride,
    charges: record.charges,
  };
}
