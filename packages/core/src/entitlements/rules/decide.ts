import type { OfferDefinition } from '../../schemas/offer.js';
import type { WebhookEvent } from '../../schemas/webhook-event.js';
import type { Entitlement, EntitlementKey, EntitlementStatus } from '../entitlement.js';
import { addDays, isOutOfDate, later } from './event-order.js';
import { withId } from './sorted-ids.js';

/**
 * What a rule does: the status fields, which the latest event sets whole, and optionally a trial
 * end and a consumable unit, which accumulate like the event's other facts.
 */
interface StatusChange {
  status: EntitlementStatus;
  cancelAt: string | null;
  graceEndsAt: string | null;
  trialEndsAt?: string | null;
  unitOrderId?: string;
}

/**
 * The access rules: what one webhook event does to the entitlement of one account and product.
 * Pure, and safe for out-of-order and repeated delivery:
 * - status, cancelAt and graceEndsAt are set whole by the latest event (by occurredAt); an older
 *   event no longer changes them;
 * - payment ids, consumable units (one per orderId), currentPeriodEnd and trialEndsAt accumulate,
 *   so they never depend on arrival order.
 * Any arrival order of the same events therefore ends in the state in-order arrival gives.
 *
 * `key` names the entitlement when there is none yet (`current` undefined). Returns the next
 * entitlement, `current` itself when the event changes no access, or undefined when there is no
 * entitlement and the event creates none.
 *
 * @example
 * const next = decide(event, await store.get(accountKey, productUid), offer, { accountKey, productUid });
 */
export function decide(
  event: WebhookEvent,
  current: Entitlement | undefined,
  offer: OfferDefinition,
  key: EntitlementKey,
): Entitlement | undefined {
  const change = ruleFor(event, current, offer);
  return change === undefined ? current : applyChange(event, current, offer, key, change);
}

/** The rules table: one case per event name, undefined for the events that change no access. */
function ruleFor(
  event: WebhookEvent,
  current: Entitlement | undefined,
  offer: OfferDefinition,
): StatusChange | undefined {
  switch (event.event) {
    case 'payment.succeeded':
      return purchased(event, offer);
    case 'entitlement.granted':
      return grantedOrReactivated(event);
    case 'subscription.trial_started':
      return trialing(event, offer);
    case 'entitlement.updated':
      return entersGrace(event) ? inGrace(event, offer) : renewed();
    case 'subscription.updated':
      return schedulesCancellation(event) ? preCanceled(event, current) : cancellationWithdrawn(event);
    case 'entitlement.revoked':
    case 'subscription.suspended':
    case 'subscription.canceled':
    case 'subscription.expired':
    case 'subscription.failed':
      return revoked();
    default:
      // payment.failed, subscription.trial_will_end and names dcbkit does not know.
      return undefined;
  }
}

/** SUBSCRIPTION grants (trialing when the offer has trial days), CONSUMABLE adds a unit, NON_CONSUMABLE unlocks for good. */
function purchased(event: WebhookEvent, offer: OfferDefinition): StatusChange {
  switch (offer.type) {
    case 'SUBSCRIPTION': {
      const trial =
        event.subscriptionStatus === 'TRIALING' || (offer.trialDays > 0 && !event.subscriptionStatus);
      return trial ? trialing(event, offer) : active();
    }
    case 'CONSUMABLE':
      // One unit per order: a redelivery, or the read-side grant of the same payment, adds nothing.
      return { ...ACTIVE, unitOrderId: event.orderId ?? event.paymentUid };
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
function grantedOrReactivated(event: WebhookEvent): StatusChange {
  return event.subscriptionStatus === 'TRIALING' ? TRIALING : active();
}

function trialing(event: WebhookEvent, offer: OfferDefinition): StatusChange {
  const computed = offer.trialDays > 0 ? addDays(event.occurredAt, offer.trialDays) : null;
  return {
    status: 'TRIALING',
    cancelAt: null,
    graceEndsAt: null,
    trialEndsAt: event.trialEndsAt ?? computed,
  };
}

/** entitlement.updated is either a collected renewal or the start of grace. */
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

/** subscription.updated either schedules a cancellation at period end or withdraws it. */
function schedulesCancellation(event: WebhookEvent): boolean {
  if (event.subscriptionStatus !== undefined) return event.subscriptionStatus === 'PRE_CANCELED';
  return typeof event.cancelAt === 'string';
}

/** Access continues until cancelAt; a PERIOD_END cancellation ends with the current period. */
function preCanceled(event: WebhookEvent, current: Entitlement | undefined): StatusChange {
  const cancelAt = event.cancelAt ?? event.currentPeriodEnd ?? current?.currentPeriodEnd ?? null;
  return { status: 'PRE_CANCELED', cancelAt, graceEndsAt: null };
}

function cancellationWithdrawn(event: WebhookEvent): StatusChange {
  return grantedOrReactivated(event);
}

function revoked(): StatusChange {
  return REVOKED;
}

/** Accumulates the event's facts, and sets the status fields unless a newer event already did. */
function applyChange(
  event: WebhookEvent,
  current: Entitlement | undefined,
  offer: OfferDefinition,
  key: EntitlementKey,
  change: StatusChange,
): Entitlement {
  const held = current ?? blank(key, offer);
  const latest = current === undefined || !isOutOfDate(event, current);
  return {
    accountKey: held.accountKey,
    productUid: held.productUid,
    offerUid: latest ? offer.offerUid : held.offerUid,
    type: held.type,
    status: latest ? change.status : held.status,
    // A new subscription to the same product (after the old one ended) takes over.
    subscriptionUid:
      (latest ? event.subscriptionUid : undefined) ?? held.subscriptionUid ?? event.subscriptionUid ?? null,
    subscriberUid: held.subscriberUid ?? event.subscriberUid ?? null,
    currentPeriodEnd: later(held.currentPeriodEnd, event.currentPeriodEnd),
    trialEndsAt: later(held.trialEndsAt, change.trialEndsAt ?? event.trialEndsAt),
    cancelAt: latest ? change.cancelAt : held.cancelAt,
    graceEndsAt: latest ? change.graceEndsAt : held.graceEndsAt,
    paymentUids: withId(held.paymentUids, event.paymentUid),
    unitOrderIds: withId(held.unitOrderIds, change.unitOrderId),
    usedOrderIds: held.usedOrderIds,
    lastEventName: latest ? event.event : held.lastEventName,
    lastEventAt: latest ? event.occurredAt : held.lastEventAt,
  };
}

function blank(key: EntitlementKey, offer: OfferDefinition): Entitlement {
  return {
    accountKey: key.accountKey,
    productUid: key.productUid,
    offerUid: offer.offerUid,
    type: offer.type,
    status: 'REVOKED',
    subscriptionUid: null,
    subscriberUid: null,
    currentPeriodEnd: null,
    trialEndsAt: null,
    cancelAt: null,
    graceEndsAt: null,
    paymentUids: [],
    unitOrderIds: [],
    usedOrderIds: [],
    lastEventName: null,
    lastEventAt: null,
  };
}
