import type { EntitlementStatus } from '../schemas/entitlement.js';
import type { SubscriptionStatus } from '../schemas/subscription.js';

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
