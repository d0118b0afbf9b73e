import { hasEnded, isTrialRunning, type SubscriptionRecord } from '../records/subscription-record.js';
import { SubscriptionRefusal } from '../refusals/refusals.js';
import type { SubscriptionCancelWhen } from '../shared/service-types.js';
import { addDays } from './billing-period.js';
import { scheduleGraceRetry } from './grace.js';
import { endSubscription } from './subscription-end.js';
import { type SubscriptionLife, scheduleEnd } from './subscription-life.js';

/**
 * `NOW`: CANCELED at once. `PERIOD_END`: PRE_CANCELED until the end of the current period (or
 * trial), as the spec's cancel endpoint says; with a renewal unpaid (IN_GRACE, or ACTIVE after a
 * resume in grace), until the end of the access its grace policy gives (at once when it gives
 * none), with no more retries. Asking again for PERIOD_END changes nothing. Throws SUB-104.
 */
export function cancelSubscription(
  life: SubscriptionLife,
  subscription: SubscriptionRecord,
  when: SubscriptionCancelWhen,
): void {
  const { status, subscriptionUid } = subscription;
  if (hasEnded(status)) {
    throw new SubscriptionRefusal(
      'SUB-104',
      `Subscription ${subscriptionUid} has already ended (${status}).`,
    );
  }
  if (when === 'NOW') {
    endSubscription(life, subscription, 'CANCELED', 'subscription.canceled');
    return;
  }
  if (status === 'PRE_CANCELED') return;
  if (subscription.grace !== null) {
    preCancelInGrace(life, subscription);
    return;
  }
  subscription.status = 'PRE_CANCELED';
  subscription.cancelAt = subscription.currentPeriodEnd;
  life.log(`subscription ${subscriptionUid} PRE_CANCELED until ${subscription.cancelAt.toISOString()}`);
  life.emit(subscription, 'subscription.updated');
}

/**
 * In grace the period is already over: access lasts as long as the grace policy gives it, so a
 * PERIOD_END cancel keeps exactly that and stops charging the line.
 */
function preCancelInGrace(life: SubscriptionLife, subscription: SubscriptionRecord): void {
  const { days, accessDuringGrace } = subscription.offer.gracePolicy;
  const now = life.clock.now();
  const graceEnd = addDays(subscription.grace?.startedAt ?? now, days);
  life.tasks.drop(subscription.subscriptionUid);
  subscription.status = 'PRE_CANCELED';
  subscription.cancelAt = accessDuringGrace && graceEnd.getTime() > now.getTime() ? graceEnd : now;
  life.log(
    `subscription ${subscription.subscriptionUid} PRE_CANCELED in grace until ${subscription.cancelAt.toISOString()}`,
  );
  life.emit(subscription, 'subscription.updated');
  scheduleEnd(life, subscription, subscription.cancelAt);
}

/**
 * Withdraws a PERIOD_END cancellation, cancelAt null: ACTIVE, as the spec's resume says, or back
 * to TRIALING in a trial. The spec's ACTIVE is "paid and running", and a trial "is TRIALING until
 * trialEndsAt" with nothing charged: a resumed trial is still that trial, which ends at trialEndsAt
 * with its first charge (its period-end task was never dropped). With a renewal unpaid, the grace
 * retries the cancellation stopped go on, and the next failed one shows IN_GRACE again. Throws SUB-105.
 */
export function resumeSubscription(life: SubscriptionLife, subscription: SubscriptionRecord): void {
  const { subscriptionUid } = subscription;
  const noneScheduled = () =>
    new SubscriptionRefusal(
      'SUB-105',
      `Subscription ${subscriptionUid} has no scheduled cancellation to withdraw.`,
    );
  if (subscription.status !== 'PRE_CANCELED') throw noneScheduled();
  const now = life.clock.now();
  if (subscription.cancelAt !== null && subscription.cancelAt.getTime() <= now.getTime()) {
    // Access already ended (a cancellation in grace without grace access ends now), though a
    // frozen clock has not run the end yet: end it, so a resume never gives that access back.
    life.periodEnds(subscription);
    throw noneScheduled();
  }
  subscription.status = isTrialRunning(subscription) ? 'TRIALING' : 'ACTIVE';
  subscription.cancelAt = null;
  life.log(`subscription ${subscriptionUid} resumed, ${subscription.status}`);
  life.emit(subscription, 'subscription.updated');
  if (subscription.grace !== null) {
    // The retries the cancellation stopped go on, from the next one due.
    life.tasks.drop(subscriptionUid);
    scheduleGraceRetry(life, subscription, now);
  }
}
