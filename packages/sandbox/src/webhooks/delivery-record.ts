import type { WebhookEvent } from '@dcbkit/core';

/** The spec: up to five attempts within 48 hours of the first, then dead-lettered. */
export const MAX_DELIVERY_ATTEMPTS = 5;
export const DELIVERY_WINDOW_SECONDS = 48 * 3600;

/**
 * - `PENDING`: an attempt is scheduled.
 * - `DELIVERED`: an attempt was answered 2xx.
 * - `DEAD_LETTERED`: attempts ran out; only a replay sends it again.
 * - `NOT_POSTED`: the application had no webhook URL when the event happened.
 */
export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'DEAD_LETTERED' | 'NOT_POSTED';

/** What delivery chaos did to an attempt: a stale signature, or an extra copy of a delivered event. */
export type AttemptChaos = 'stale-signature' | 'duplicate';

/** One POST of an event to the webhook URL and how it went. */
export interface DeliveryAttempt {
  /** 1-based; replays and duplicates continue the count. */
  number: number;
  replay: boolean;
  chaos: AttemptChaos | null;
  /** Sandbox time of the attempt. */
  at: string;
  url: string;
  /** The Service-Signature header sent. */
  signature: string;
  /** The receiver's status, or null when it never answered. */
  httpStatus: number | null;
  /** Why the attempt failed without an answer (timeout, connection refused...). */
  error: string | null;
  /** The start of the receiver's answer. */
  responseBody: string | null;
  ok: boolean;
}

/** An event and the story of its delivery, as `GET /sandbox/webhooks` lists it. */
export interface WebhookDelivery {
  id: string;
  clientId: string;
  event: string;
  status: DeliveryStatus;
  /** The payload, and below it the exact bytes signed and sent. */
  payload: WebhookEvent;
  body: string;
  createdAt: string;
  firstAttemptAt: string | null;
  nextAttemptAt: string | null;
  attempts: DeliveryAttempt[];
  /** What delivery chaos did to the event as a whole (body indented, held back, delayed). */
  chaos: string[];
}

/** Nothing more will be sent unless asked: delivered, or never posted. */
export function isSettled(status: DeliveryStatus): status is 'DELIVERED' | 'NOT_POSTED' {
  return status === 'DELIVERED' || status === 'NOT_POSTED';
}
