import { hasEnded, isTrialRunning, type SubscriptionRecord } from '../records/subscription-record.js';
import { addDays } from './billing-period.js';
import { collectsInGrace, scheduleGraceRetry } from './grace.js';
import { type SubscriptionLife, scheduleEnd } from './subscription-life.js';
import { scheduleTrialReminder, TRIAL_REMINDER_DAYS } from './trial-reminder.js';

/**
 * Puts a subscription's pending work from a state file back on the clock: the end of the trial or
 * period, the trial reminder not yet sent at `savedAt`, the next grace retry.
 */
export function rescheduleSaved(
  life: SubscriptionLife,
  subscription: SubscriptionRecord,
  savedAt: Date,
): void {
  const { status } = subscription;
  if (hasEnded(status)) return;
  if (collectsInGrace(subscription)) {
    scheduleGraceRetry(life, subscription);
    return;
  }
  // A cancellation in grace ends at its own cancelAt, after the period it no longer renews.
  const endsAt =
    status === 'PRE_CANCELED'
      ? (subscription.cancelAt ?? subscription.currentPeriodEnd)
      : subscription.currentPeriodEnd;
  scheduleEnd(life, subscription, endsAt);
  const remindAt = addDays(subscription.currentPeriodEnd, -TRIAL_REMINDER_DAYS);
  if (isTrialRunning(subscription) && remindAt.getTime() > savedAt.getTime()) {
    scheduleTrialReminder(life, subscription, remindAt);
  }
}
