import type { EntitlementStatus } from '../schemas/entitlement.js';
import type { Subscription, SubscriptionStatus } from '../schemas/subscription.js';
import { STATUS_MEANINGS } from './event-meaning.js';
import { trialRunsAt } from './times.js';

/** The entitlement status a subscription in this status gives (event-meaning.ts): the ended ones are all REVOKED. */
export function entitlementStatusOf(status: SubscriptionStatus): EntitlementStatus {
  return STATUS_MEANINGS[status].entitlement;
}

/**
 * The entitlement status a subscription read at `at` gives: its status's, but TRIALING for an
 * ACTIVE one whose trial still runs (see trialRunsAt), so that the first charge is never shown as made.
 */
export function entitlementStatusOfSubscription(
  subscription: Pick<Subscription, 'status' | 'trialEndsAt'>,
  at: string,
): EntitlementStatus {
  return subscription.status === 'ACTIVE' && trialRunsAt(subscription.trialEndsAt, at)
    ? 'TRIALING'
    : entitlementStatusOf(subscription.status);
}
