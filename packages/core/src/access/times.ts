import type { Entitlement } from '../schemas/entitlement.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';

/** True when this exact event was the last one applied: a redelivery after a failed attempt. */
export function isLastApplied(event: WebhookEvent, current: Entitlement | undefined): boolean {
  return (
    current !== undefined &&
    current.lastEventName === event.event &&
    current.lastEventAt !== null &&
    compareTimes(current.lastEventAt, event.occurredAt) === 0
  );
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

/**
 * True when a free trial still runs at `at`: its end is still ahead. A subscription said ACTIVE
 * with such a trial end is the trial resumed: the spec's resume row gives ACTIVE, yet a trial "is
 * TRIALING until trialEndsAt" with nothing charged, and ACTIVE means "paid and running".
 */
export function trialRunsAt(trialEndsAt: string | null | undefined, at: string): boolean {
  return typeof trialEndsAt === 'string' && compareTimes(trialEndsAt, at) > 0;
}
