import type { WebhookEvent } from '@dcbkit/core';
import type { SandboxClock } from '../clock/clock.js';
import { newId } from '../payments/ids.js';
import type { PaymentRecord } from '../payments/payment-record.js';
import { paymentEventPayload } from '../webhooks/event-payloads.js';
import { addBillingPeriod, addDays } from './billing-period.js';
import type { SubscriptionRecord } from './subscription-record.js';

/** What starting a subscription produced: the record, and the events that follow payment.succeeded. */
export interface SubscriptionStart {
  subscription: SubscriptionRecord;
  followUpEvents: WebhookEvent[];
}

/**
 * Subscriptions started by first payments. This is the one place the payment flow hands over to
 * subscriptions: `start` runs when a SUBSCRIPTION offer's first payment succeeds. The lifecycle
 * after that (trial end, renewals, grace, cancellation) is scheduled from here on the clock.
 */
export class SubscriptionEngine {
  private readonly subscriptions = new Map<string, SubscriptionRecord>();

  constructor(private readonly clock: SandboxClock) {}

  /** True when this first payment opens a free trial, so nothing is charged. */
  startsWithTrial(payment: PaymentRecord): boolean {
    return payment.offer.type === 'SUBSCRIPTION' && payment.offer.trialDays > 0;
  }

  /**
   * Creates the subscription of a first payment that just succeeded (`payment.status` is already
   * SUCCEEDED): TRIALING until the trial ends, or ACTIVE for a paid first period.
   */
  start(payment: PaymentRecord): SubscriptionStart {
    const { offer, subscriberUid } = payment;
    if (offer.type !== 'SUBSCRIPTION' || !offer.billingPeriod || subscriberUid === undefined) {
      throw new TypeError('SubscriptionEngine.start: needs an identified payment for a SUBSCRIPTION offer.');
    }
    const now = this.clock.now();
    const trial = this.startsWithTrial(payment);
    const periodEnd = trial ? addDays(now, offer.trialDays) : addBillingPeriod(now, offer.billingPeriod);
    const subscription: SubscriptionRecord = {
      subscriptionUid: newId('subs'),
      clientId: payment.clientId,
      offer,
      subscriberUid,
      paymentUid: payment.paymentUid,
      status: trial ? 'TRIALING' : 'ACTIVE',
      createdAt: now,
      currentPeriodStart: now,
      currentPeriodEnd: periodEnd,
      trialEndsAt: trial ? periodEnd : null,
      cancelAt: null,
    };
    this.subscriptions.set(subscription.subscriptionUid, subscription);
    payment.subscriptionUid = subscription.subscriptionUid;
    // A trial starts access without a charge; "entitlement.granted" waits for the paid conversion.
    const followUp = trial ? 'subscription.trial_started' : 'entitlement.granted';
    return { subscription, followUpEvents: [paymentEventPayload(followUp, payment, now, subscription)] };
  }

  /** The application's subscription, or undefined (another application's is not found either). */
  get(clientId: string, subscriptionUid: string): SubscriptionRecord | undefined {
    const subscription = this.subscriptions.get(subscriptionUid);
    return subscription?.clientId === clientId ? subscription : undefined;
  }
}
