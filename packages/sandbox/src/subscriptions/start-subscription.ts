import type { WebhookEvent } from '@dcbkit/core';
import { paymentEventPayload, subscriptionEventPayload } from '../records/event-payloads.js';
import type { PaymentRecord } from '../records/payment-record.js';
import type { SubscriptionRecord } from '../records/subscription-record.js';
import { newId } from '../shared/ids.js';
import { addBillingPeriod, addDays } from './billing-period.js';
import { type SubscriptionLife, scheduleEnd } from './subscription-life.js';
import { scheduleTrialReminder, TRIAL_REMINDER_DAYS } from './trial-reminder.js';

/** What starting a subscription produced: the record, and the events that follow payment.succeeded. */
export interface SubscriptionStart {
  subscription: SubscriptionRecord;
  followUpEvents: WebhookEvent[];
}

/** True when this first payment opens a free trial, so nothing is charged. */
export function startsWithTrial(payment: PaymentRecord): boolean {
  return payment.offer.type === 'SUBSCRIPTION' && payment.offer.trialDays > 0;
}

/**
 * The subscription of a first payment that just succeeded: TRIALING until the trial ends, or
 * ACTIVE for a paid first period, its end on the clock.
 */
export function startSubscription(life: SubscriptionLife, payment: PaymentRecord): SubscriptionStart {
  const { offer, subscriberUid } = payment;
  if (offer.type !== 'SUBSCRIPTION' || !offer.billingPeriod || subscriberUid === undefined) {
    throw new TypeError('SubscriptionEngine.start: needs an identified payment for a SUBSCRIPTION offer.');
  }
  const now = life.clock.now();
  const trial = startsWithTrial(payment);
  const periodEnd = trial ? addDays(now, offer.trialDays) : addBillingPeriod(now, offer.billingPeriod);
  const subscription: SubscriptionRecord = {
    subscriptionUid: newId('subs'),
    clientId: payment.clientId,
    offer,
    subscriberUid,
    payment,
    status: trial ? 'TRIALING' : 'ACTIVE',
    createdAt: now,
    currentPeriodStart: now,
    currentPeriodEnd: periodEnd,
    trialEndsAt: trial ? periodEnd : null,
    cancelAt: null,
    grace: null,
    paidPeriods: trial ? 0 : 1,
    charges: [],
    renewalOverride: null,
    endedAt: null,
  };
  payment.subscriptionUid = subscription.subscriptionUid;
  scheduleEnd(life, subscription, periodEnd);
  life.log(`subscription ${subscription.subscriptionUid} ${subscription.status}`);
  // A trial starts access without a charge; "entitlement.granted" waits for the paid conversion.
  if (!trial) {
    return {
      subscription,
      followUpEvents: [paymentEventPayload('entitlement.granted', payment, now, subscription)],
    };
  }
  return { subscription, followUpEvents: startTrial(life, subscription, now) };
}

/** trial_started, and trial_will_end now when the trial is shorter than the reminder's days. */
function startTrial(life: SubscriptionLife, subscription: SubscriptionRecord, now: Date): WebhookEvent[] {
  const events = [paymentEventPayload('subscription.trial_started', subscription.payment, now, subscription)];
  const remindAt = addDays(subscription.currentPeriodEnd, -TRIAL_REMINDER_DAYS);
  if (remindAt.getTime() <= now.getTime()) {
    events.push(subscriptionEventPayload('subscription.trial_will_end', subscription, now));
  } else {
    scheduleTrialReminder(life, subscription, remindAt);
  }
  return events;
}
