import { businessFactOf, eventFactOf } from '../access/event-meaning.js';
import { addBillingPeriod } from '../offers/add-billing-period.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { Money } from '../schemas/primitives.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import type { LiveChange, MetricEntry, MetricKind } from './metric-entry.js';
import type { MetricSighting } from './metric-sighting.js';
import { monthlyValueOf } from './monthly-value.js';
import { readChargedAt, readEndedAt, readStartOf, trialPeriod } from './read-times.js';

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

const DAY_MS = 86_400_000;
/** Grace retries come a day apart; an on-time renewal is charged as its period ends. */
const LATE_MS = DAY_MS / 2;

/**
 * The period whose unpaid renewal a charge at `chargedAt` recovers from grace, if it does: the
 * record held IN_GRACE says so; so does, for an event, a charge that came a retry's day or more
 * after the period held ended and within the grace (a subscription resumed in grace is held ACTIVE
 * while its renewal is still unpaid, and the grace's own event may come later, reordered). A
 * charge later than the grace allows renews a period the kit never saw, and recovers nothing it
 * can name; a record that holds the period the charge opened (a read came first) names none either:
 * the grace's own event then tells the recovery (graceEntries).
 */
function unpaidPeriodOf(
  { held, offer, source, event }: MetricSighting,
  chargedAt: string,
): string | undefined {
  const periodEnd = held?.currentPeriodEnd;
  // Held up to the period this charge opens, or later: the record is newer than the charge, and
  // what it holds is not the period the charge renews.
  if (periodEnd == null || (event.currentPeriodEnd !== undefined && periodEnd >= event.currentPeriodEnd))
    return undefined;
  if (held?.status === 'IN_GRACE') return periodEnd;
  if (source === 'read' || offer.gracePolicy.days === 0) return undefined;
  const late = Date.parse(chargedAt) - Date.parse(periodEnd);
  return late >= LATE_MS && late <= offer.gracePolicy.days * DAY_MS + LATE_MS ? periodEnd : undefined;
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

/** The recovery from the grace of the period that ended unpaid at `unpaid`. */
function recoveredEntry(
  sighting: MetricSighting,
  subscriptionUid: string,
  unpaid: string | undefined,
  at: string,
): MetricEntry {
  const { offer } = sighting;
  // Back in, when the grace had counted the subscriber out (graceEntries): keyed alike, so the two
  // add up to nothing whichever is told first.
  const live = withholdsInGrace(offer) ? 1 : 0;
  return entry(
    sighting,
    `recovered:${subscriptionUid}:${unpaid}`,
    'grace_recovered',
    at,
    zero(offer.price),
    live,
  );
}

/**
 * A renewal not collected, keyed by the period left unpaid; counted when it was due, for a read.
 * Told after a later period was already paid (a reordered delivery), it was recovered from too.
 */
function graceEntries(sighting: MetricSighting, subscriptionUid: string): MetricEntry[] {
  const { event, held, source } = sighting;
  const unpaid = event.currentPeriodEnd ?? held?.currentPeriodEnd ?? event.occurredAt;
  const at = source === 'read' && unpaid < event.occurredAt ? unpaid : event.occurredAt;
  const failed = failedEntry(sighting, subscriptionUid, unpaid, at);
  // A period paid since, told after this grace began: a recovery. It opened after the grace began;
  // a record's period end alone would not say it, as it only moves forward, across a returning
  // subscriber's subscriptions too.
  const opened = held?.currentPeriodEnd ? periodOpening(held.currentPeriodEnd, sighting.offer) : undefined;
  const paidSince = held !== undefined && opened !== undefined && opened > unpaid;
  if (!paidSince || held.status === 'IN_GRACE') return [failed];
  return [failed, recoveredEntry(sighting, subscriptionUid, unpaid, recoveredAt(sighting, unpaid, opened))];
}

/**
 * When the grace of the period `unpaid` was recovered from, told by a grace event that came after
 * the charge that ended it: that charge opened the period held (it starts a period when
 * collected), if it lies in the grace; when later periods were paid since, the last event held.
 */
function recoveredAt({ event, held, offer }: MetricSighting, unpaid: string, opened: string): string {
  const late = Date.parse(opened) - Date.parse(unpaid);
  return late <= offer.gracePolicy.days * DAY_MS + LATE_MS ? opened : (held?.lastEventAt ?? event.occurredAt);
}

/** When a period that ends at `end` began: a billing period before (a trial's, when it has none). */
function periodOpening(end: string, offer: OfferDefinition): string | undefined {
  const period = offer.billingPeriod;
  if (!period) return undefined;
  return addBillingPeriod(new Date(end), { unit: period.unit, count: -period.count }).toISOString();
}

/** A renewal (or a trial's first charge) not collected: grace began, counting the subscriber out when it withholds access. */
function failedEntry(
  sighting: MetricSighting,
  subscriptionUid: string,
  unpaid: string,
  at: string,
): MetricEntry {
  const { offer } = sighting;
  const live = withholdsInGrace(offer) ? -1 : 0;
  return entry(sighting, `grace:${subscriptionUid}:${unpaid}`, 'renewal_failed', at, zero(offer.price), live);
}

/**
 * A subscription's end counts it out, once, whatever told it and whenever. Every live change is
 * fixed by its key, never by what the store held (which a read, or another subscription of the
 * account, may have changed in between): in at its start, out at its end, out and back in around
 * a grace that withholds access. An end during such a grace (the period ended unpaid) closes it:
 * it tells the grace's failed renewal too (keyed alike, so counted once) and brings the subscriber
 * back in before counting it out, so the grace and the end together count it out once.
 */
function churnEntries(sighting: MetricSighting, subscriptionUid: string, kind: MetricKind): MetricEntry[] {
  const { event, offer } = sighting;
  const at = readEndedAt(sighting, kind);
  const ended = entry(sighting, `end:${subscriptionUid}`, kind, at, zero(offer.price), -1);
  const unpaid = event.currentPeriodEnd;
  if (unpaid === undefined || offer.gracePolicy.days === 0 || !endedInGrace(sighting, unpaid, at))
    return [ended];
  const failed = failedEntry(sighting, subscriptionUid, unpaid, unpaid);
  if (!withholdsInGrace(offer)) return [failed, ended];
  const closed = {
    ...entry(
      sighting,
      `grace_closed:${subscriptionUid}:${unpaid}`,
      'grace_recovered',
      at,
      zero(offer.price),
      1,
    ),
    count: 0,
  };
  return [failed, closed, ended];
}

/**
 * Whether the subscription ended with its period `unpaid` unpaid: an event says when it ended, so
 * after the period's end; a read cannot date a cancellation, so a suspension (the grace ran out)
 * or a record last seen in grace.
 */
function endedInGrace({ event, source, held }: MetricSighting, unpaid: string, at: string): boolean {
  if (source === 'event') return unpaid < at;
  return event.subscriptionStatus === 'SUSPENDED' || held?.status === 'IN_GRACE';
}

function withholdsInGrace(offer: OfferDefinition): boolean {
  return offer.gracePolicy.days > 0 && !offer.gracePolicy.accessDuringGrace;
}

function entry(
  sighting: MetricSighting,
  key: string,
  kind: MetricKind,
  occurredAt: string,
  money: Money,
  live: LiveChange,
): MetricEntry {
  const { event, offer } = sighting;
  return {
    key,
    kind,
    offerUid: event.offerUid ?? offer.offerUid,
    productUid: event.productUid ?? offer.productUid,
    occurredAt,
    count: 1,
    amount: money.amount,
    currency: money.currency,
    live,
    ...(sighting.source === 'read' ? { provisional: true as const } : {}),
  };
}

function zero(price: Money): Money {
  return { amount: 0, currency: price.currency };
}
