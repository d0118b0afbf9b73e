import type { Entitlement } from '../schemas/entitlement.js';

/**
 * Why an entitlement may be stale, so that a read should confirm it:
 * - `trial_ended`, `period_ended`, `cancel_at_passed`, `grace_ended`: the date that ends its
 *   current status has passed, and nothing was heard of it since (the event that should have
 *   followed may have been dead-lettered);
 * - `stale`: nothing heard of it for longer than the configured age (a missed cancellation, say).
 */
export type DueReason = 'trial_ended' | 'period_ended' | 'cancel_at_passed' | 'grace_ended' | 'stale';

/**
 * A subscription that may still give access and can be read: one that ended (REVOKED) changes
 * only through a new payment, which the return page and its webhook handle.
 */
export function isLiveSubscription(entitlement: Entitlement): boolean {
  return (
    entitlement.type === 'SUBSCRIPTION' &&
    entitlement.status !== 'REVOKED' &&
    entitlement.subscriptionUid !== null
  );
}

/**
 * The date that ends the entitlement's current status, and the reason it gives once passed. Only
 * the status's own date counts: an ACTIVE subscription's old trial end says nothing, and a read
 * that finds it renewed moves `currentPeriodEnd` on, so it is not due again until the next one.
 * A SQL store keeps `at` in an indexed column, written with the record.
 */
export function reconcileDeadline(
  entitlement: Entitlement,
): { at: string; reason: Exclude<DueReason, 'stale'> } | undefined {
  if (!isLiveSubscription(entitlement)) return undefined;
  const { currentPeriodEnd, trialEndsAt, cancelAt, graceEndsAt } = entitlement;
  switch (entitlement.status) {
    case 'TRIALING': {
      const end = earliest(trialEndsAt, currentPeriodEnd);
      if (end === null) return undefined;
      return { at: end, reason: end === trialEndsAt ? 'trial_ended' : 'period_ended' };
    }
    case 'ACTIVE':
      return currentPeriodEnd === null ? undefined : { at: currentPeriodEnd, reason: 'period_ended' };
    case 'PRE_CANCELED': {
      const end = cancelAt ?? currentPeriodEnd;
      return end === null ? undefined : { at: end, reason: 'cancel_at_passed' };
    }
    case 'IN_GRACE': {
      // No graceEndsAt: the offer gives no access during grace, and grace ends with a later event.
      const end = graceEndsAt ?? currentPeriodEnd;
      return end === null ? undefined : { at: end, reason: 'grace_ended' };
    }
    default:
      return undefined;
  }
}

/**
 * When the entitlement was last heard of: its last event (or read), or the last reconciliation
 * that confirmed it, whichever is later; null when neither (a grant from an untimed payment read).
 */
export function lastHeardAt(entitlement: Entitlement, reconciledAt: string | null): string | null {
  const event = entitlement.lastEventAt;
  if (event === null) return reconciledAt;
  if (reconciledAt === null) return event;
  return Date.parse(reconciledAt) > Date.parse(event) ? reconciledAt : event;
}

/** The moment a due check is made for, and the age past which a live subscription is due anyway. */
export interface DueCheck {
  /** Deadlines up to now have passed. */
  now: Date;
  /** Live subscriptions heard of (event, read or reconciliation) last before this are due; null: age alone makes none due. */
  staleBefore: Date | null;
}

/**
 * Whether reconciliation should read this entitlement now, and why; undefined when not. Pure: the
 * memory store filters with it, and the SQL store's query is the same test on columns (the
 * conformance suite checks that they agree).
 *
 * @example
 * dueReason(entitlement, null, { now: new Date(), staleBefore: null }); // 'period_ended'
 */
export function dueReason(
  entitlement: Entitlement,
  reconciledAt: string | null,
  { now, staleBefore }: DueCheck,
): DueReason | undefined {
  if (!isLiveSubscription(entitlement)) return undefined;
  const heard = lastHeardAt(entitlement, reconciledAt);
  const heardMs = heard === null ? Number.NEGATIVE_INFINITY : Date.parse(heard);
  const deadline = reconcileDeadline(entitlement);
  if (deadline !== undefined) {
    const atMs = Date.parse(deadline.at);
    if (atMs <= now.getTime() && heardMs < atMs) return deadline.reason;
  }
  if (staleBefore !== null && heardMs < staleBefore.getTime()) return 'stale';
  return undefined;
}

function earliest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(b) < Date.parse(a) ? b : a;
}
