/** What the handler answers; an adapter writes it back as is. */
export interface WebhookResponse {
  status: number;
  headers: Record<string, string>;
  /** Small JSON: an outcome or an error code; never a secret, a stack trace or the request. */
  body: string;
}

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

function json(status: number, body: object, headers: Record<string, string> = {}): WebhookResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

// Built once: every delivery of a busy receiver ends here.
const RECEIVED_BODIES: Readonly<Record<WebhookOutcome, string>> = {
  applied: JSON.stringify({ received: true, outcome: 'applied' }),
  duplicate: JSON.stringify({ received: true, outcome: 'duplicate' }),
  ignored: JSON.stringify({ received: true, outcome: 'ignored' }),
  unknown_offer: JSON.stringify({ received: true, outcome: 'unknown_offer' }),
};

export function received(outcome: WebhookOutcome): WebhookResponse {
  return { status: 200, headers: { 'content-type': 'application/json' }, body: RECEIVED_BODIES[outcome] };
}

export function refused(status: number, error: string, retryAfterSeconds?: number): WebhookResponse {
  return json(
    status,
    { received: false, error },
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  );
}
