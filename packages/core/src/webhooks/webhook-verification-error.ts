/**
 * Why a webhook was refused. Stable: branch on it, log it, count it.
 * - `header_missing`: no Service-Signature header.
 * - `header_malformed`: not `t=<seconds>,v1=<hex>[,...]`, or no v1 entry.
 * - `timestamp_invalid`: `t` is not a whole number of seconds.
 * - `timestamp_out_of_tolerance`: `t` is further than the tolerance from now, in the past or the future.
 * - `signature_mismatch`: no v1 entry matches any configured secret.
 * - `body_not_raw`: the body was handed over parsed (or not at all) instead of as the received bytes.
 * - `body_not_json`: the signed body is not JSON.
 * - `event_invalid`: the signed body is JSON but not a webhook event.
 */
export type WebhookVerificationReason =
  | 'header_missing'
  | 'header_malformed'
  | 'timestamp_invalid'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  | 'body_not_raw'
  | 'body_not_json'
  | 'event_invalid';

/** The one error verifyWebhook throws. Messages never contain a secret or the signature. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** Reasons that mean the request did not prove it came from the service (as opposed to a bad body). */
export function isAuthenticationFailure(reason: WebhookVerificationReason): boolean {
  return (
    reason === 'header_missing' ||
    reason === 'header_malformed' ||
    reason === 'timestamp_invalid' ||
    reason === 'timestamp_out_of_tolerance' ||
    reason === 'signature_mismatch'
  );
}
