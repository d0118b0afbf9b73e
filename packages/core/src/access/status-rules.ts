import type { EntitlementStatus } from '../schemas/entitlement.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { addDays, trialRunsAt } from './times.js';

// What each event does to a subscription's status, one small rule per outcome. The table of
// event-meaning.ts says which rule an event name runs; decide.ts orders the events and writes the
// winner into the record.

/**
 * What a rule does: the status fields, which the latest event sets whole, and optionally a trial
 * end and a consumable unit, which accumulate like the event's other facts.
 */
export interface StatusChange {
  status: EntitlementStatus;
  cancelAt: string | null;
  graceEndsAt: string | null;
  trialEndsAt?: string | null;
  unitOrderId?: string;
}

/**
 * The order a CONSUMABLE purchase's unit is counted by (undefined for any other event): one unit
 * per order, so a redelivery, or the read-side grant of the same payment, adds nothing.
 */
export function unitOrderIdOf(event: WebhookEvent, offer: OfferDefinition): string | undefined {
  return offer.type === 'CONSUMABLE' && event.event === 'payment.succeeded'
    ? (event.orderId ?? event.paymentUid)
    : undefined;
}

/** payment.succeeded: SUBSCRIPTION grants (trialing when the offer has trial days), CONSUMABLE adds a unit, NON_CONSUMABLE unlocks for good. */
export function purchased(event: WebhookEvent, offer: OfferDefinition): StatusChange {
  switch (offer.type) {
    case 'SUBSCRIPTION': {
      const trial =
        event.subscriptionStatus === 'TRIALING' || (offer.trialDays > 0 && !event.subscriptionStatus);
      return trial ? trialing(event, offer) : active();
    }
    case 'CONSUMABLE':
      return { ...ACTIVE, unitOrderId: unitOrderIdOf(event, offer) };
    case 'NON_CONSUMABLE':
      return active();
  }
}

const ACTIVE: StatusChange = Object.freeze({ status: 'ACTIVE', cancelAt: null, graceEndsAt: null });
const TRIALING: StatusChange = Object.freeze({ status: 'TRIALING', cancelAt: null, graceEndsAt: null });
const REVOKED: StatusChange = Object.freeze({ status: 'REVOKED', cancelAt: null, graceEndsAt: null });

function active(): StatusChange {
  return ACTIVE;
}

/** entitlement.granted: first payment, reactivation or a paid trial conversion. */
export function grantedOrReactivated(event: WebhookEvent): StatusChange {
  return event.subscriptionStatus === 'TRIALING' ? TRIALING : active();
}

/** subscription.trial_started, or a first payment that began a trial: trialing until the trial's end. */
export function trialing(event: WebhookEvent, offer: OfferDefinition): StatusChange {
  const computed = offer.trialDays > 0 ? addDays(event.occurredAt, offer.trialDays) : null;
  return {
    status: 'TRIALING',
    cancelAt: null,
    graceEndsAt: null,
    trialEndsAt: event.trialEndsAt ?? computed,
  };
}

/** entitlement.updated: either a collected renewal or the start of grace. */
export function chargedOrInGrace(event: WebhookEvent, offer: OfferDefinition): StatusChange {
  return entersGrace(event) ? inGrace(event, offer) : renewed();
}

function entersGrace(event: WebhookEvent): boolean {
  if (event.subscriptionStatus !== undefined) return event.subscriptionStatus === 'IN_GRACE';
  return (event.periodOutstanding?.amount ?? 0) > 0;
}

function renewed(): StatusChange {
  return active();
}

/** Access during grace only when the offer's grace policy allows it, for its days from when grace began. */
function inGrace(event: WebhookEvent, offer: OfferDefinition): StatusChange {
  const { accessDuringGrace, days } = offer.gracePolicy;
  const graceEndsAt = accessDuringGrace && days > 0 ? addDays(event.occurredAt, days) : null;
  return { status: 'IN_GRACE', cancelAt: null, graceEndsAt };
}

/** subscription.updated: either schedules a cancellation at period end or withdraws it. */
export function cancellationTermsChanged(event: WebhookEvent): StatusChange {
  return schedulesCancellation(event) ? preCanceled(event) : cancellationWithdrawn(event);
}

function schedulesCancellation(event: WebhookEvent): boolean {
  if (event.subscriptionStatus !== undefined) return event.subscriptionStatus === 'PRE_CANCELED';
  return typeof event.cancelAt === 'string';
}

/**
 * Access continues until cancelAt; a PERIOD_END cancellation ends with the current period. Only
 * the event's own fields are used, so the outcome never depends on what arrived before it; with
 * neither, cancelAt stays null and hasAccess ends access at the entitlement's currentPeriodEnd.
 */
function preCanceled(event: WebhookEvent): StatusChange {
  const cancelAt = event.cancelAt ?? event.currentPeriodEnd ?? null;
  return { status: 'PRE_CANCELED', cancelAt, graceEndsAt: null };
}

/**
 * A withdrawn cancellation gives back what the subscription was: a trial stays a trial until it
 * ends, with nothing charged, whether the service says TRIALING or, after the spec's resume row,
 * ACTIVE with a trial end still ahead (see trialRunsAt).
 */
function cancellationWithdrawn(event: WebhookEvent): StatusChange {
  const status = event.subscriptionStatus ?? 'ACTIVE';
  const trial =
    status === 'TRIALING' || (status === 'ACTIVE' && trialRunsAt(event.trialEndsAt, event.occurredAt));
  return trial ? TRIALING : active();
}

/** An ending: access ends, whatever the event's cause. */
export function revoked(): StatusChange {
  return REVOKED;
}
