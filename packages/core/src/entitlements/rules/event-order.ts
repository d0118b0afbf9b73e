import type { WebhookEvent } from '../../schemas/webhook-event.js';
import type { Entitlement } from '../entitlement.js';

/**
 * Two events at the same instant: the later step of a subscription's life wins, so the outcome
 * does not depend on which of them arrived first.
 */
const PRECEDENCE: Readonly<Record<string, number>> = {
  'payment.succeeded': 1,
  'subscription.trial_started': 1,
  'entitlement.granted': 2,
  'entitlement.updated': 3,
  'subscription.updated': 4,
  'entitlement.revoked': 5,
  'subscription.suspended': 5,
  'subscription.canceled': 5,
  'subscription.expired': 5,
  'subscription.failed': 5,
};

/**
 * True when the event is older (occurredAt) than the last one that set the entitlement's status:
 * it may still add ids, but it no longer changes the status. Delivery can be out of order.
 */
export function isOutOfDate(event: WebhookEvent, current: Entitlement): boolean {
  if (current.lastEventAt === null) return false;
  const order = compareTimes(event.occurredAt, current.lastEventAt);
  if (order !== 0) return order < 0;
  return precedence(event.event) < precedence(current.lastEventName);
}

/** True when this exact event was the last one applied: a redelivery after a failed attempt. */
export function isLastApplied(event: WebhookEvent, current: Entitlement | undefined): boolean {
  return (
    current !== undefined &&
    current.lastEventName === event.event &&
    current.lastEventAt !== null &&
    compareTimes(current.lastEventAt, event.occurredAt) === 0
  );
}

function precedence(name: string | null): number {
  return (name !== null && PRECEDENCE[name]) || 0;
}

/** The later of two timestamps; the one already held wins a tie, so the stored text stays stable. */
export function later(held: string | null, incoming: string | null | undefined): string | null {
  if (incoming === undefined || incoming === null) return held;
  if (held === null) return incoming;
  return compareTimes(incoming, held) > 0 ? incoming : held;
}

/**
 * Chronological order of two ISO timestamps. UTC texts of one shape (the service's own) compare
 * as text, which spares a Date.parse on every event; anything else is parsed.
 */
export function compareTimes(a: string, b: string): number {
  if (a.length === b.length && a.endsWith('Z') && b.endsWith('Z')) return a < b ? -1 : a > b ? 1 : 0;
  return Math.sign(Date.parse(a) - Date.parse(b));
}

const DAY_MS = 86_400_000;

export function addDays(timestamp: string, days: number): string {
  return new Date(Date.parse(timestamp) + days * DAY_MS).toISOString();
}
