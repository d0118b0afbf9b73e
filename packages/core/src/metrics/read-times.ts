import { addBillingPeriod } from '../offers/add-billing-period.js';
import type { BillingPeriod, OfferDefinition } from '../schemas/offer.js';
import type { MetricKind } from './metric-entry.js';
import type { MetricSighting } from './metric-sighting.js';

/**
 * When what a sighting tells happened. An event says so itself (`occurredAt`); a read of the service
 * tells a state, not the moment it came about, so each helper here dates it as well as the state
 * allows, never later than the read. What a read dates this way is still provisional
 * (MetricEntry.provisional): the event it stood for moves it to its own day when it lands.
 */

/**
 * A charge a read finds: the service starts a period when its charge is collected, so it was
 * charged a billing period before the period it opened ends (late, on a grace retry's day), and
 * no sooner than the period it renews ended (on time); never later than the read.
 */
export function readChargedAt(sighting: MetricSighting): string {
  const { event, source, offer, held } = sighting;
  if (source === 'event') return event.occurredAt;
  const opened = readStartOf(sighting, event.currentPeriodEnd, offer.billingPeriod);
  const due = held?.currentPeriodEnd;
  return due != null && due > opened ? earlier(due, event.occurredAt) : opened;
}

/**
 * When a subscription ended, as far as what was seen tells: an event's own time; for a read, when
 * an expiry was due (the period's end) or a grace ran out, if that is not later than the read, and
 * the read's time otherwise (a cancellation now, which a read cannot date).
 */
export function readEndedAt({ event, source, held, offer }: MetricSighting, kind: MetricKind): string {
  if (source === 'event') return event.occurredAt;
  let due: string | null | undefined;
  if (kind === 'churn_expired') due = event.cancelAt ?? event.currentPeriodEnd;
  if (kind === 'churn_suspended' && event.currentPeriodEnd) {
    due = held?.graceEndsAt ?? addDays(event.currentPeriodEnd, offer.gracePolicy.days);
  }
  return due ? earlier(due, event.occurredAt) : event.occurredAt;
}

/**
 * When a period that ends at `end` began, for a read (which tells the state, not when it began):
 * `end` less the period, if not later than the read. An event tells its own time.
 */
export function readStartOf(
  { event, source }: MetricSighting,
  end: string | undefined,
  period: BillingPeriod | null | undefined,
): string {
  if (source === 'event' || end === undefined || !period) return event.occurredAt;
  const start = addBillingPeriod(new Date(end), { unit: period.unit, count: -period.count }).toISOString();
  return earlier(start, event.occurredAt);
}

/** The earlier of two ISO 8601 UTC times (they compare as text). */
function earlier(a: string, b: string): string {
  return a < b ? a : b;
}

/** A free trial as a period of days, to date its start from its end. */
export function trialPeriod(offer: OfferDefinition): BillingPeriod | undefined {
  return offer.trialDays ? { unit: 'DAY', count: offer.trialDays } : undefined;
}

function addDays(iso: string, days: number): string {
  return new Date(Date.parse(iso) + days * 86_400_000).toISOString();
}
