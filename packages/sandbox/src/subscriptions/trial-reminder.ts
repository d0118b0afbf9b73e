import { isTrialRunning, type SubscriptionRecord } from '../records/subscription-record.js';
import type { SubscriptionLife } from './subscription-life.js';

/** `subscription.trial_will_end` comes this long before the trial ends (at the start of a shorter trial). */
export const TRIAL_REMINDER_DAYS = 3;

/**
 * The reminder warns of a charge to come: not once the trial is cancelled at its end. It still
 * comes after that cancellation was withdrawn, when the subscription shows ACTIVE in its trial.
 */
function remindsOfTrialEnd(subscription: SubscriptionRecord): boolean {
  return isTrialRunning(subscription) && subscription.status !== 'PRE_CANCELED';
}

export function scheduleTrialReminder(
  life: SubscriptionLife,
  subscription: SubscriptionRecord,
  at: Date,
): void {
  life.schedule(subscription, at, 'trial reminder', () => {
    if (remindsOfTrialEnd(subscription)) life.emit(subscription, 'subscription.trial_will_end');
  });
}
