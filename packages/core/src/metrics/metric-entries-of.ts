import type { Entitlement } from '../schemas/entitlement.js';
import type { OfferDefinition } from '../schemas/offer.js';
import type { Money } from '../schemas/primitives.js';
import type { SubscriptionStatus } from '../schemas/subscription.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import type { LiveChange, MetricEntry, MetricKind } from './metric-entry.js';

/** Something the kit saw and decided on, as the metrics read it. */
export interface MetricSighting {
  /** A verified webhook event, or a read of the service stamped as one (`occurredAt`: when the read was sent). */
  readonly event: WebhookEvent;
  readonly source: 'event' | 'read';
  /** The event's offer, from the partner's offers. */
  readonly offer: OfferDefinition;
  /** The entitlement as it was held before this was applied. */
  readonly held: Entitlement | undefined;
}

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
    (event.event === 'payment.succeeded' || (sighting.source === 'read' && event.status === 'SUCCEEDED'));
  if (!purchased) return [];
  const kind: MetricKind = offer.type === 'CONSUMABLE' ? 'unit_sold' : 'unlock_sold';
  return [entry(sighting, `purchase:${event.paymentUid}`, kind, event.occurredAt, offer.price, 0)];
}

const ENDED_STATUSES: Partial<Record<SubscriptionStatus, MetricKind>> = {
  CANCELED: 'churn_canceled',
  EXPIRED: 'churn_expired',
  SUSPENDED: 'churn_suspended',
};

const ENDING_EVENTS: Readonly<Record<string, MetricKind>> = {
  'subscription.canceled': 'churn_canceled',
  'subscription.expired': 'churn_expired',
  'subscription.suspended': 'churn_suspended',
  // A trial whose first charge never came: ended for want of payment.
  'subscription.failed': 'churn_suspended',
  'entitlement.revoked': 'churn_revoked',
};

function subscriptionEntries(sighting: MetricSighting): MetricEntry[] {
  const { event, held } = sighting;
  const subscriptionUid = event.subscriptionUid ?? held?.subscriptionUid ?? undefined;
  // A payment read alone proves no period: the subscription's read, or its webhooks, tell it.
  if (subscriptionUid === undefined || (sighting.source === 'read' && event.event === 'payment.succeeded')) {
    return [];
  }
  const status = event.subscriptionStatus;
  const ending = (status && ENDED_STATUSES[status]) ?? ENDING_EVENTS[event.event];
  if (ending !== undefined) return [churnEntry(sighting, subscriptionUid, ending)];
  if (startsTrial(sighting)) {
    return [periodEntry(sighting, subscriptionUid, 'trial_started', zero(sighting.offer.price), 1)];
  }
  if (status === 'IN_GRACE' || opensGrace(event)) return graceEntries(sighting, subscriptionUid);
  if (event.event === 'payment.succeeded') {
    return [periodEntry(sighting, subscriptionUid, 'new_subscription', sighting.offer.price, 1)];
  }
  return collectedPeriodEntries(sighting, subscriptionUid);
}

function startsTrial({ event, source, held }: MetricSighting): boolean {
  if (event.event === 'subscription.trial_started') return true;
  const trialing = event.subscriptionStatus === 'TRIALING';
  if (event.event === 'payment.succeeded') return trialing || (event.trialEndsAt != null && !event.orderId);
  return source === 'read' && trialing && held?.currentPeriodEnd == null;
}

/** entitlement.updated telling that nothing was collected and the period's price is outstanding. */
function opensGrace(event: WebhookEvent): boolean {
  return (
    event.event === 'entitlement.updated' &&
    event.orderId === undefined &&
    (event.periodOutstanding?.amount ?? 0) > 0 &&
    (event.amountCollected?.amount ?? 0) === 0
  );
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
  const charged =
    source === 'event'
      ? (event.event === 'entitlement.granted' || event.event === 'entitlement.updated') &&
        (event.orderId !== undefined || collected)
      : (event.subscriptionStatus === 'ACTIVE' || event.subscriptionStatus === 'PRE_CANCELED') &&
        periodEnd !== undefined &&
        (held?.currentPeriodEnd == null || periodEnd > held.currentPeriodEnd);
  if (!charged) return [];
  const amount = collected && event.amountCollected ? event.amountCollected : offer.price;
  const trialEnd = held?.trialEndsAt ?? event.trialEndsAt ?? null;
  // A read knows the state, not the moment: a renewal on time was charged when the held period ended.
  const due = held?.currentPeriodEnd ?? null;
  const at = source === 'read' && due !== null && due <= event.occurredAt ? due : event.occurredAt;
  const kind = periodKind(at, periodEnd, trialEnd, held);
  const entries = [
    periodEntry(sighting, subscriptionUid, kind, amount, kind === 'new_subscription' ? 1 : 0, at),
  ];
  if (held?.status === 'IN_GRACE') {
    // Back in: a grace without access had counted the subscriber out.
    const live = offer.gracePolicy.accessDuringGrace ? 0 : 1;
    entries.push(recoveredEntry(sighting, subscriptionUid, held.currentPeriodEnd ?? periodEnd, at, live));
  }
  return entries;
}

/**
 * Which paid period a charge at `chargedAt` opened. A trial's conversion is charged at the trial's
 * end (or a few grace days later) and the next charge a whole period after it, so a charge nearer
 * the trial's end than its own period's end is the conversion; order-free, as it reads no history.
 */
function periodKind(
  chargedAt: string,
  periodEnd: string | undefined,
  trialEnd: string | null,
  held: Entitlement | undefined,
): MetricKind {
  if (trialEnd !== null && periodEnd !== undefined) {
    const charged = Date.parse(chargedAt);
    if (charged - Date.parse(trialEnd) < Date.parse(periodEnd) - charged) return 'trial_converted';
  }
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
  live: LiveChange,
): MetricEntry {
  const zeroed = zero(sighting.offer.price);
  return entry(sighting, `recovered:${subscriptionUid}:${unpaid}`, 'grace_recovered', at, zeroed, live);
}

/**
 * A renewal not collected, keyed by the period left unpaid; counted when it was due, for a read.
 * Told after a later period was already paid (a reordered delivery), it was recovered from too.
 */
function graceEntries(sighting: MetricSighting, subscriptionUid: string): MetricEntry[] {
  const { event, held, offer, source } = sighting;
  const unpaid = event.currentPeriodEnd ?? held?.currentPeriodEnd ?? event.occurredAt;
  const at = source === 'read' && unpaid < event.occurredAt ? unpaid : event.occurredAt;
  const paidSince = held !== undefined && held.currentPeriodEnd !== null && unpaid < held.currentPeriodEnd;
  const live = offer.gracePolicy.accessDuringGrace || !isLive(held, offer) || paidSince ? 0 : -1;
  const failed = entry(
    sighting,
    `grace:${subscriptionUid}:${unpaid}`,
    'renewal_failed',
    at,
    zero(offer.price),
    live,
  );
  if (!paidSince || held.status === 'IN_GRACE') return [failed];
  return [failed, recoveredEntry(sighting, subscriptionUid, unpaid, held.lastEventAt ?? event.occurredAt, 0)];
}

function churnEntry(sighting: MetricSighting, subscriptionUid: string, kind: MetricKind): MetricEntry {
  const { event, held, offer } = sighting;
  // Not live before (never counted in, or out since a grace without access): no second count out.
  const live = isLive(held, offer) ? -1 : 0;
  return entry(sighting, `end:${subscriptionUid}`, kind, event.occurredAt, zero(offer.price), live);
}

/** Counted among the live subscribers: held, not ended, and not in a grace that withholds access. */
function isLive(held: Entitlement | undefined, offer: OfferDefinition): boolean {
  if (held === undefined || held.status === 'REVOKED') return false;
  return held.status !== 'IN_GRACE' || offer.gracePolicy.accessDuringGrace;
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
  };
}

function zero(price: Money): Money {
  return { amount: 0, currency: price.currency };
}
