import { DELIVERY_WINDOW_SECONDS, MAX_DELIVERY_ATTEMPTS, type WebhookDelivery } from './delivery-record.js';

/** Attempts the schedule made: replays and chaos duplicates are extra. */
export function scheduledAttemptsOf(delivery: WebhookDelivery): number {
  return delivery.attempts.filter((attempt) => !attempt.replay && attempt.chaos !== 'duplicate').length;
}

/**
 * When the next attempt after a failed one is due, or null when the event is to be dead-lettered:
 * the delays ran out, five attempts were made, or the next would fall past 48 hours of the first.
 */
export function nextRetryAt(
  delivery: WebhookDelivery,
  retryDelaysSeconds: readonly number[],
  nowMs: number,
): Date | null {
  const scheduledAttempts = scheduledAttemptsOf(delivery);
  const delaySeconds = retryDelaysSeconds[scheduledAttempts - 1];
  if (delaySeconds === undefined || scheduledAttempts >= MAX_DELIVERY_ATTEMPTS) return null;
  const firstAttemptAt = Date.parse(delivery.firstAttemptAt ?? delivery.createdAt);
  const nextAt = nowMs + delaySeconds * 1000;
  return nextAt > firstAttemptAt + DELIVERY_WINDOW_SECONDS * 1000 ? null : new Date(nextAt);
}
