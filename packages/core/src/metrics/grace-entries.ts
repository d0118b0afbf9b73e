import { addBillingPeriod } from '../offers/add-billing-period.js';
import type { OfferDefinition } from '../schemas/offer.js';
import { entry, zero } from './fact-entry.js';
import type { MetricEntry, MetricKind } from './metric-entry.js';
import type { MetricSighting } from './metric-sighting.js';
import { readEndedAt } from './read-times.js';

// A subscription's grace and its end as facts: the renewal left unpaid, the recovery from it, and
// the end that closes it, each keyed by the period so that the order they are told in never counts
// a subscriber twice.

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
export function unpaidPeriodOf(
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

/** The recovery from the grace of the period that ended unpaid at `unpaid`. */
export function recoveredEntry(
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
export function graceEntries(sighting: MetricSighting, subscriptionUid: string): MetricEntry[] {
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
export function churnEntries(
  sighting: MetricSighting,
  subscriptionUid: string,
  kind: MetricKind,
): MetricEntry[] {
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
