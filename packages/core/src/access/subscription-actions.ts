import type { Entitlement } from '../schemas/entitlement.js';
import { isLiveSubscription } from './reconcile-deadline.js';

/** What the subscriber may do with a subscription now, as the service allows it. */
export interface SubscriptionActions {
  /** `POST …/cancel` with `when` PERIOD_END: a live subscription with no cancellation scheduled. */
  readonly cancelAtPeriodEnd: boolean;
  /** `POST …/cancel` with `when` NOW: any live subscription, a scheduled cancellation included. */
  readonly cancelNow: boolean;
  /** `POST …/resume`: only a PERIOD_END cancellation can be withdrawn (PRE_CANCELED -> ACTIVE, TRIALING in a trial). */
  readonly resume: boolean;
}

const NONE: SubscriptionActions = Object.freeze({
  cancelAtPeriodEnd: false,
  cancelNow: false,
  resume: false,
});

/**
 * The actions a page may offer for a subscription entitlement; none for an ended one or for a
 * one-time purchase. The spec asks for "a clear way to cancel a subscription": offer at least one
 * of the cancels whenever this says so.
 *
 * @example
 * const { cancelAtPeriodEnd, resume } = subscriptionActions(entitlement);
 */
export function subscriptionActions(entitlement: Entitlement | undefined): SubscriptionActions {
  if (entitlement === undefined || !isLiveSubscription(entitlement)) return NONE;
  const scheduled = entitlement.status === 'PRE_CANCELED';
  return { cancelAtPeriodEnd: !scheduled, cancelNow: true, resume: scheduled };
}

/**
 * When access ends if nothing more is paid: the scheduled cancellation, else a trial's end, else
 * the period's end; null when nothing says (a one-time purchase, say).
 */
export function accessEndsAt(entitlement: Entitlement | undefined): string | null {
  if (entitlement === undefined) return null;
  if (entitlement.cancelAt) return entitlement.cancelAt;
  if (entitlement.status === 'TRIALING' && entitlement.trialEndsAt) return entitlement.trialEndsAt;
  return entitlement.currentPeriodEnd;
}
