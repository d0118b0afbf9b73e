import type { EntitlementStatus } from '../schemas/entitlement.js';
import { isKnownEventName, type WebhookEventName } from '../schemas/event-names.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { SubscriptionStatus } from '../schemas/subscription.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import {
  cancellationTermsChanged,
  chargedOrInGrace,
  grantedOrReactivated,
  purchased,
  revoked,
  type StatusChange,
  trialing,
} from './status-rules.js';

// What an event means, in one place: per event name of the spec and per subscription status, what
// it does to access, to the entitlement's status and to the business view. The rules (decide), the
// listeners, the reads and the metrics all read these two tables; `satisfies Record<…>` makes the
// compiler reject a name or a status left out.

/**
 * What an event does to access.
 * - `grant`: access starts (or continues).
 * - `revoke`: access ends.
 * - `change`: access continues with new terms (renewal, grace, a cancellation scheduled or withdrawn).
 * - `none`: no access change; listeners may still act (a reminder, a failed payment).
 */
export type AccessEffect = 'grant' | 'revoke' | 'change' | 'none';

/** Why a subscription ended, as the business view counts its churn. */
export type Ending = 'canceled' | 'expired' | 'suspended' | 'revoked';

/**
 * What an event or a read tells the business view.
 * - `purchase`: a payment collected at checkout: a one-off's sale, a subscription's first payment (or,
 *   with a trial, the trial begun).
 * - `trial`: a free trial begun.
 * - `charge`: a charge collected: a first payment, a conversion, a renewal or a reactivation.
 * - `renewal`: a renewal's outcome: collected, or the start of grace when the period is outstanding.
 * - `grace`: a renewal not collected, the subscription in grace.
 * - `end`: the subscription ended, and why.
 * - `nothing`: no fact (new terms, a reminder, a failed checkout: the funnel counts those).
 */
export type BusinessFact =
  | { readonly tells: 'purchase' | 'trial' | 'charge' | 'renewal' | 'grace' | 'nothing' }
  | { readonly tells: 'end'; readonly ending: Ending };

const told = (tells: Exclude<BusinessFact['tells'], 'end'>): BusinessFact => ({ tells });
const ended = (ending: Ending): BusinessFact => ({ tells: 'end', ending });
const NOTHING = told('nothing');

type StatusRule = (event: WebhookEvent, offer: OfferDefinition) => StatusChange;

interface EventMeaning {
  readonly access: AccessEffect;
  /**
   * For two events with the same `occurredAt`: the later step of a subscription's life wins, so
   * the outcome does not depend on which of them arrived first.
   */
  readonly precedence: number;
  /** The status it gives the entitlement (decide writes the winner); none for an event that changes no access. */
  readonly status: StatusRule | undefined;
  readonly business: BusinessFact;
}

/** Every event name of the spec's Events table, with what it does. */
export const EVENT_MEANINGS = {
  'payment.succeeded': { access: 'grant', precedence: 1, status: purchased, business: told('purchase') },
  'payment.failed': { access: 'none', precedence: 0, status: undefined, business: NOTHING },
  'entitlement.granted': {
    access: 'grant',
    precedence: 2,
    status: grantedOrReactivated,
    business: told('charge'),
  },
  'entitlement.updated': {
    access: 'change',
    precedence: 3,
    status: chargedOrInGrace,
    business: told('renewal'),
  },
  'entitlement.revoked': { access: 'revoke', precedence: 5, status: revoked, business: ended('revoked') },
  'subscription.trial_started': { access: 'grant', precedence: 1, status: trialing, business: told('trial') },
  'subscription.trial_will_end': { access: 'none', precedence: 0, status: undefined, business: NOTHING },
  'subscription.updated': {
    access: 'change',
    precedence: 4,
    status: cancellationTermsChanged,
    business: NOTHING,
  },
  'subscription.suspended': {
    access: 'revoke',
    precedence: 5,
    status: revoked,
    business: ended('suspended'),
  },
  'subscription.canceled': { access: 'revoke', precedence: 5, status: revoked, business: ended('canceled') },
  'subscription.expired': { access: 'revoke', precedence: 5, status: revoked, business: ended('expired') },
  // A trial whose first charge never came: ended for want of payment, as a suspension is.
  'subscription.failed': { access: 'revoke', precedence: 5, status: revoked, business: ended('suspended') },
} as const satisfies Record<WebhookEventName, EventMeaning>;

interface StatusMeaning {
  /** The entitlement status a subscription in this status gives: the ended ones are all REVOKED. */
  readonly entitlement: EntitlementStatus;
  /** The event the service sends when a subscription reaches this status: a read is decided as it. */
  readonly readAs: WebhookEventName;
  /** What a subscription seen in this status tells the business view (an ended status wins over an event's name). */
  readonly business: BusinessFact;
}

/** Every subscription status of the spec, with what it means. */
export const STATUS_MEANINGS = {
  TRIALING: { entitlement: 'TRIALING', readAs: 'subscription.updated', business: told('trial') },
  ACTIVE: { entitlement: 'ACTIVE', readAs: 'subscription.updated', business: told('charge') },
  PRE_CANCELED: { entitlement: 'PRE_CANCELED', readAs: 'subscription.updated', business: told('charge') },
  IN_GRACE: { entitlement: 'IN_GRACE', readAs: 'entitlement.updated', business: told('grace') },
  SUSPENDED: { entitlement: 'REVOKED', readAs: 'subscription.suspended', business: ended('suspended') },
  CANCELED: { entitlement: 'REVOKED', readAs: 'subscription.canceled', business: ended('canceled') },
  EXPIRED: { entitlement: 'REVOKED', readAs: 'subscription.expired', business: ended('expired') },
} as const satisfies Record<SubscriptionStatus, StatusMeaning>;

/** What the event does to access; `none` for names dcbkit does not know. */
export function accessEffectOf(name: string | null | undefined): AccessEffect {
  return name != null && isKnownEventName(name) ? EVENT_MEANINGS[name].access : 'none';
}

/** The same-instant precedence of an event name; 0 for names dcbkit does not know. */
export function precedenceOf(name: string | null | undefined): number {
  return name != null && isKnownEventName(name) ? EVENT_MEANINGS[name].precedence : 0;
}

/** What the event's name tells the business view (`nothing` for names dcbkit does not know); see businessFactOf for a subscription's. */
export function eventFactOf(name: string): BusinessFact {
  return isKnownEventName(name) ? EVENT_MEANINGS[name].business : NOTHING;
}

/** The status the event gives the entitlement; undefined for the events that change no access, and unknown names. */
export function ruleFor(event: WebhookEvent, offer: OfferDefinition): StatusChange | undefined {
  return isKnownEventName(event.event) ? EVENT_MEANINGS[event.event].status?.(event, offer) : undefined;
}

/**
 * What an event (`source: 'event'`) or a read of the service (`'read'`, decided as the event its
 * status stands for) tells the business view of a subscription, by the two tables: an ended status
 * first, then the event's name, its status and its own fields. `heldPeriodEnd` is the period end
 * the record held: a read of a trial already seen tells nothing new.
 */
export function businessFactOf(
  event: WebhookEvent,
  source: 'event' | 'read',
  heldPeriodEnd: string | null | undefined,
): BusinessFact {
  const byStatus =
    event.subscriptionStatus === undefined ? undefined : STATUS_MEANINGS[event.subscriptionStatus].business;
  if (source === 'read') {
    // A payment read alone proves no period: the subscription's read, or its webhooks, tell it.
    if (event.event === 'payment.succeeded' || byStatus === undefined) return NOTHING;
    return byStatus.tells === 'trial' && heldPeriodEnd != null ? NOTHING : byStatus;
  }
  if (byStatus?.tells === 'end') return byStatus;
  const byName = eventFactOf(event.event);
  if (byName.tells === 'end' || byName.tells === 'trial') return byName;
  if (byName.tells === 'purchase' && startsTrial(event)) return told('trial');
  if (byStatus?.tells === 'grace' || (byName.tells === 'renewal' && opensGrace(event))) return told('grace');
  if (byName.tells === 'purchase') return byName;
  if (byName.tells === 'charge' || byName.tells === 'renewal')
    return collects(event) ? told('charge') : NOTHING;
  return NOTHING;
}

/** A subscription's first payment that began a free trial: told TRIALING, or a trial end with no order charged. */
function startsTrial(event: WebhookEvent): boolean {
  return event.subscriptionStatus === 'TRIALING' || (event.trialEndsAt != null && !event.orderId);
}

/** A renewal telling that nothing was collected and the period's price is outstanding. */
function opensGrace(event: WebhookEvent): boolean {
  return (
    event.orderId === undefined &&
    (event.periodOutstanding?.amount ?? 0) > 0 &&
    (event.amountCollected?.amount ?? 0) === 0
  );
}

/** A charge event that collected: it names its order, or an amount. */
function collects(event: WebhookEvent): boolean {
  return event.orderId !== undefined || (event.amountCollected?.amount ?? 0) > 0;
}
