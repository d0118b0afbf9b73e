import type { EntitlementStatus } from '../schemas/entitlement.js';
import type { Subscription, SubscriptionStatus } from '../schemas/subscription.js';
import { compareTimes } from './times.js';

/** The entitlement status a subscription in this status gives: the ended ones are all REVOKED. */
const ENTITLEMENT_STATUS_OF: Record<SubscriptionStatus, EntitlementStatus> = {
  TRIALING: 'TRIALING',
  ACTIVE: 'ACTIVE',
  PRE_CANCELED: 'PRE_CANCELED',
  IN_GRACE: 'IN_GRACE',
  SUSPENDED: 'REVOKED',
  CANCELED: 'REVOKED',
  EXPIRED: 'REVOKED',
};

export function entitlementStatusOf(status: SubscriptionStatus): EntitlementStatus {
  return ENTITLEMENT_STATUS_OF[status];
}

/**
 * True when a free trial still runs at `at`: its end is still ahead. A subscription said ACTIVE
 * with such a trial end is the trial resumed: the spec's resume row gives ACTIVE, yet a trial "is
 * TRIALING until trialEndsAt" with nothing charged, and ACTIVE means "paid and running".
 */
export function trialRunsAt(trialEndsAt: string | null | undefined, at: string): boolean {
  return typeof trialEndsAt === 'string' && compareTimes(trialEndsAt, at) > 0;
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
