import type { Entitlement, EntitlementKey, EntitlementStatus } from '../schemas/entitlement.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { ruleFor } from './event-meaning.js';
import { type EntitlementFacts, type KnownFacts, NO_KNOWN_FACTS } from './facts.js';
import { claimWins, heldClaim, isSameInstantTie, readName, type StatusClaim } from './status-claim.js';
import { type StatusChange, unitOrderIdOf } from './status-rules.js';
import { later } from './times.js';

export interface DecideOptions {
  /**
   * `read`: the event stands for a server-side read (the return page, a cancel or resume answer),
   * not for a webhook. It holds the status until the events land and never outranks one; its
   * `lastEventName` is `read:<event>`, and its `occurredAt` must be no later than the time its
   * facts were true (the time the read was sent, say).
   * `untimed_read`: a read that proves no time at all (a payment read says nothing about the
   * subscription today): it sets the status only on an entitlement no event has set, with
   * `lastEventAt` null, and every event replaces it.
   */
  source?: 'event' | 'read' | 'untimed_read';
  /**
   * What a server-side read says the subscription is now (mapped to an entitlement status): it
   * settles a same-instant tie between two outcomes when it names one of them (see status-claim.ts).
   */
  confirmedStatus?: EntitlementStatus;
  /**
   * Which of the event's facts (see `factsOf`) the store already holds for this entitlement, as
   * `store.update` tells its change: a unit is counted only when neither its order nor its payment is known.
   */
  known?: KnownFacts;
}

/**
 * The access rules: what one webhook event does to the entitlement of one account and product.
 * Pure, and safe for out-of-order and repeated delivery:
 * - status, cancelAt, graceEndsAt, offerUid, subscriptionUid, subscriberUid and the
 *   lastEventName / lastEventAt marker are written whole by the greatest event in a total order
 *   (occurredAt, the event table's precedence, then the outcome with more access, then the text
 *   of the fields; see status-claim.ts); a lesser event no longer changes them;
 * - consumable units (one per order: `options.known` says whether the store holds the order id
 *   already), currentPeriodEnd and trialEndsAt accumulate, so they never depend on arrival order.
 * Any arrival order of the same events therefore ends in the state in-order arrival gives.
 *
 * `key` names the entitlement when there is none yet (`current` undefined). Returns the next
 * entitlement, `current` itself when the event changes no access, or undefined when there is no
 * entitlement and the event creates none.
 *
 * @example
 * await store.update(accountKey, productUid,
 *   (current, known) => decide(event, current, offer, { accountKey, productUid }, { known }),
 *   factsOf(event, offer));
 */
export function decide(
  event: WebhookEvent,
  current: Entitlement | undefined,
  offer: OfferDefinition,
  key: EntitlementKey,
  options: DecideOptions = {},
): Entitlement | undefined {
  const change = ruleFor(event, offer);
  return change === undefined ? current : applyChange(event, current, offer, key, change, options);
}

/**
 * The ids the event brings for the store to keep beside the entitlement (see EntitlementFacts):
 * its payment, and for a CONSUMABLE purchase the order its unit is counted by. Pass them to
 * `store.update` with a change that hands `known` to `decide`.
 */
export function factsOf(event: WebhookEvent, offer: OfferDefinition): EntitlementFacts {
  const unitOrderId = unitOrderIdOf(event, offer);
  return unitOrderId === undefined
    ? { paymentUid: event.paymentUid }
    : { paymentUid: event.paymentUid, unitOrderId };
}

/**
 * True when the event meets the held status at the same instant and the same step, with another
 * outcome: the order alone cannot tell which happened last, and a read can (see applyEvent's
 * `confirm`).
 */
export function tiesWithHeld(
  event: WebhookEvent,
  current: Entitlement | undefined,
  offer: OfferDefinition,
): boolean {
  if (current === undefined || current.lastEventAt === null) return false;
  const change = ruleFor(event, offer);
  if (change === undefined) return false;
  return isSameInstantTie(claimOf(event, current, offer, change, 'event'), heldClaim(current));
}

/** Accumulates the event's facts, and writes its status claim when it wins over the held one. */
function applyChange(
  event: WebhookEvent,
  current: Entitlement | undefined,
  offer: OfferDefinition,
  key: EntitlementKey,
  change: StatusChange,
  options: DecideOptions,
): Entitlement {
  const held = current ?? blank(key, offer);
  const known = options.known ?? NO_KNOWN_FACTS;
  // Neither the order nor the payment seen before: a read without the orderId and the webhook
  // with it (or the reverse) name one purchase differently, and it counts once.
  const newUnit = change.unitOrderId !== undefined && !known.unitOrderId && !known.paymentUid;
  const claim = claimOf(event, held, offer, change, options.source ?? 'event');
  const wins = current === undefined || claimWins(claim, heldClaim(held), options.confirmedStatus);
  const status = wins ? claim : heldClaim(held);
  return {
    accountKey: held.accountKey,
    productUid: held.productUid,
    offerUid: status.offerUid,
    type: held.type,
    status: status.status,
    // A new subscription to the same product (after the old one ended) takes over.
    subscriptionUid: status.subscriptionUid ?? event.subscriptionUid ?? null,
    subscriberUid: status.subscriberUid ?? event.subscriberUid ?? null,
    currentPeriodEnd: later(held.currentPeriodEnd, event.currentPeriodEnd),
    trialEndsAt: later(held.trialEndsAt, change.trialEndsAt ?? event.trialEndsAt),
    cancelAt: status.cancelAt,
    graceEndsAt: status.graceEndsAt,
    unitsBought: newUnit ? held.unitsBought + 1 : held.unitsBought,
    unitsUsed: held.unitsUsed,
    // The offer's terms, which every offer of the product shares (defineOffers sees to it): a
    // record written before the offer sold time takes them with its next event.
    unitAccessSeconds: unitAccessSecondsOf(offer),
    unitAccessEndsAt: held.unitAccessEndsAt ?? null,
    lastEventName: status.name,
    lastEventAt: status.at,
  };
}

/**
 * What the event writes if it wins. The ids it lacks are kept from the held record (the service
 * sends them on every subscription event; an event without them is the one case where they can
 * depend on arrival order).
 */
function claimOf(
  event: WebhookEvent,
  held: Entitlement,
  offer: OfferDefinition,
  change: StatusChange,
  source: 'event' | 'read' | 'untimed_read',
): StatusClaim {
  return {
    at: source === 'untimed_read' ? null : event.occurredAt,
    name: source === 'event' ? event.event : readName(event.event),
    status: change.status,
    cancelAt: change.cancelAt,
    graceEndsAt: change.graceEndsAt,
    offerUid: offer.offerUid,
    subscriptionUid: event.subscriptionUid ?? held.subscriptionUid,
    subscriberUid: event.subscriberUid ?? held.subscriberUid,
  };
}

function unitAccessSecondsOf(offer: OfferDefinition): number | null {
  return offer.type === 'CONSUMABLE' ? (offer.unitAccessSeconds ?? null) : null;
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
    unitsBought: 0,
    unitsUsed: 0,
    unitAccessSeconds: unitAccessSecondsOf(offer),
    unitAccessEndsAt: null,
    lastEventName: null,
    lastEventAt: null,
  };
}
