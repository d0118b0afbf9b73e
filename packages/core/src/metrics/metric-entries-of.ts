import { businessFactOf, eventFactOf } from '../access/event-meaning.js';
import { addBillingPeriod } from '../offers/add-billing-period.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { Money } from '../schemas/primitives.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { entry, zero } from './fact-entry.js';
import { churnEntries, graceEntries, recoveredEntry, unpaidPeriodOf } from './grace-entries.js';
import type { LiveChange, MetricEntry, MetricKind } from './metric-entry.js';
import type { MetricSighting } from './metric-sighting.js';
import { monthlyValueOf } from './monthly-value.js';
import { readChargedAt, readStartOf, trialPeriod } from './read-times.js';

export type { MetricSighting } from './metric-sighting.js';

/**
 * The facts for the business view that an event or a read tells, each keyed by what happened so
 * that a redelivery, a read of the same state or a reordered copy adds nothing: a subscription's
 * periods by their end (`period:<subscriptionUid>:<periodEnd>`), its grace by the period left
 * unpaid, its end once, a purchase by its payment. Pure: the same sighting gives the same facts.
 */
export function metricEntriesOf(sighting: MetricSighting): MetricEntry[] {
  const { event, offer } = sighting;
  if (offer.type === 'SUBSCRIPTION') return subscriptionEntries(sighting);
  const purchased =
    event.paymentUid !== undefined &&
    (eventFactOf(event.event).tells === 'purchase' ||
      (sighting.source === 'read' && event.status === 'SUCCEEDED'));
  if (!purchased) return [];
  const kind: MetricKind = offer.type === 'CONSUMABLE' ? 'unit_sold' : 'unlock_sold';
  return [entry(sighting, `purchase:${event.paymentUid}`, kind, event.occurredAt, offer.price, 0)];
}

/** A subscription's facts, each naming the subscription, its account and monthly value for the lifecycle records. */
function subscriptionEntries(seen: MetricSighting): MetricEntry[] {
  const subscriptionUid = seen.event.subscriptionUid ?? seen.held?.subscriptionUid ?? undefined;
  const entries = subscriptionFacts(seen, subscriptionUid);
  if (entries.length === 0 || subscriptionUid === undefined) return entries;
  // The held record is the account's for this product whichever subscription it follows.
  const accountKey = seen.accountKey ?? seen.held?.accountKey;
  const monthlyValue = monthlyValueOf(seen.offer);
  return entries.map((one) => ({
    ...one,
    subscriptionUid,
    ...(accountKey === undefined ? {} : { accountKey }),
    ...(monthlyValue === undefined ? {} : { monthlyValue }),
  }));
}

function subscriptionFacts(seen: MetricSighting, subscriptionUid: string | undefined): MetricEntry[] {
  // The record of the account's product may hold another subscription (the one a returning
  // subscriber had before): what it says is not this one's past, which is then unknown.
  const sighting = seen.held?.subscriptionUid === subscriptionUid ? seen : { ...seen, held: undefined };
  if (subscriptionUid === undefined) return [];
  const { event, offer } = sighting;
  const fact = businessFactOf(event, sighting.source, sighting.held?.currentPeriodEnd);
  switch (fact.tells) {
    case 'end':
      return churnEntries(sighting, subscriptionUid, `churn_${fact.ending}`);
    case 'trial': {
      const at = readStartOf(sighting, event.trialEndsAt ?? event.currentPeriodEnd, trialPeriod(offer));
      return [periodEntry(sighting, subscriptionUid, 'trial_started', zero(offer.price), 1, at)];
    }
    case 'grace':
      return graceEntries(sighting, subscriptionUid);
    case 'purchase':
      return [periodEntry(sighting, subscriptionUid, 'new_subscription', offer.price, 1)];
    case 'charge':
      return collectedPeriodEntries(sighting, subscriptionUid);
    case 'renewal':
    case 'nothing':
      return [];
  }
}

/**
 * A charge collected: the first paid period of a subscription, a trial's conversion or a renewal;
 * a renewal whose charge had failed also recovers from grace. A webhook tells it with its order; a
 * read, by a period end later than the one held.
 */
function collectedPeriodEntries(sighting: MetricSighting, subscriptionUid: string): MetricEntry[] {
  const { event, held, source, offer } = sighting;
  const periodEnd = event.currentPeriodEnd;
  const collected = event.amountCollected !== undefined && event.amountCollected.amount > 0;
  // An event tells its charge itself (businessFactOf); a read, by a period end later than the one held.
  const charged =
    source === 'event' ||
    (periodEnd !== undefined && (held?.currentPeriodEnd == null || periodEnd > held.currentPeriodEnd));
  if (!charged) return [];
  const amount = collected && event.amountCollected ? event.amountCollected : offer.price;
  // An offer without a trial has no conversion, whatever trial the account's record remembers.
  const trialEnd = offer.trialDays > 0 ? (held?.trialEndsAt ?? event.trialEndsAt ?? null) : null;
  const at = readChargedAt(sighting);
  const kind = periodKind(at, trialEnd, offer, held, source === 'event' ? event : undefined);
  // Never seen before: a read's first period began a billing period before it ends.
  const chargedAt = kind === 'new_subscription' ? readStartOf(sighting, periodEnd, offer.billingPeriod) : at;
  const entries = [
    periodEntry(sighting, subscriptionUid, kind, amount, kind === 'new_subscription' ? 1 : 0, chargedAt),
  ];
  const unpaid = unpaidPeriodOf(sighting, at);
  if (unpaid !== undefined) entries.push(recoveredEntry(sighting, subscriptionUid, unpaid, at));
  return entries;
}

/**
 * Which paid period a charge at `chargedAt` opened. A trial's conversion is charged at the trial's
 * end (or a few grace days later), and the first renewal a whole billing period after the
 * conversion, so no sooner than one period after the trial's end: a charge before that is the
 * conversion. Order-free, as it reads no history; calendar months counted as the service renews
 * (a month after 1 February is 1 March, 28 days). A daily plan whose grace lasts a period or more
 * cannot be told apart this way: its conversion recovered in grace counts as a renewal.
 */
function periodKind(
  chargedAt: string,
  trialEnd: string | null,
  offer: OfferDefinition,
  held: Entitlement | undefined,
  event: WebhookEvent | undefined,
): MetricKind {
  if (trialEnd !== null && offer.billingPeriod) {
    const firstRenewal = addBillingPeriod(new Date(trialEnd), offer.billingPeriod);
    if (Date.parse(chargedAt) < firstRenewal.getTime()) return 'trial_converted';
  }
  // The spec's event table: `entitlement.updated` is a renewal (or a conversion paid in grace,
  // above); `entitlement.granted` is a first payment, or a reactivation, which is a renewal
  // collected in grace and, as every renewal, carries `amountCollected` ("on renewals"). Told by
  // the event alone, not by what the record held: a reordered end may have come first.
  if (event?.event === 'entitlement.updated') return 'renewal_collected';
  if (event?.event === 'entitlement.granted')
    return event.amountCollected === undefined ? 'new_subscription' : 'renewal_collected';
  return held?.currentPeriodEnd == null ? 'new_subscription' : 'renewal_collected';
}

function periodEntry(
  sighting: MetricSighting,
  subscriptionUid: string,
  kind: MetricKind,
  money: Money,
  live: LiveChange,
  at = sighting.event.occurredAt,
): MetricEntry {
  const { event } = sighting;
  // The spec does not show the period on payment events; without it, the first period's key.
  const period = event.currentPeriodEnd ?? (event.orderId ? `order:${event.orderId}` : 'first');
  return entry(sighting, `period:${subscriptionUid}:${period}`, kind, at, money, live);
}
