import { type AnsweredErrorCode, httpStatusOf } from '../errors/code-groups.js';
import type { HttpAnswer } from '../http/http-answer.js';

/**
 * - `applied`: processed (including events that change no access).
 * - `duplicate`: processed before; nothing done.
 * - `ignored`: an event name dcbkit does not know; nothing done (a retry would never do more).
 * - `unknown_offer`: the offer is missing from your offers; nothing written, logged.
 */
export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored' | 'unknown_offer';

/** Retry-After while another delivery of the same event is being processed. */
export const IN_PROGRESS_RETRY_SECONDS = 5;
/** Retry-After when an event overtook the payment that creates its entitlement. */
export const UNMATCHED_RETRY_SECONDS = 60;

const JSON_TYPE = 'application/json';

// Built once: every delivery of a busy receiver ends here.
const RECEIVED_BODIES: Readonly<Record<WebhookOutcome, string>> = {
  applied: JSON.stringify({ received: true, outcome: 'applied' }),
  duplicate: JSON.stringify({ received: true, outcome: 'duplicate' }),
  ignored: JSON.stringify({ received: true, outcome: 'ignored' }),
  unknown_offer: JSON.stringify({ received: true, outcome: 'unknown_offer' }),
};

/** 200 with the outcome: small JSON, never a secret, a stack trace or the request. */
export function received(outcome: WebhookOutcome): HttpAnswer {
  return { status: 200, headers: { 'content-type': JSON_TYPE }, body: RECEIVED_BODIES[outcome] };
}

/**
 * A refusal with its code, answered with the code's status from DCB_ERROR_CODES, and the delay
 * after which the service should retry, when there is one.
 *
 * @example
 * return refused('in_progress', IN_PROGRESS_RETRY_SECONDS); // 409, Retry-After: 5
 */
export function refused(error: AnsweredErrorCode, retryAfterSeconds?: number): HttpAnswer {
  const headers: Record<string, string> = { 'content-type': JSON_TYPE };
  if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds);
  return { status: httpStatusOf(error), headers, body: JSON.stringify({ received: false, error }) };
}
