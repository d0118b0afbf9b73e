import { DcbError } from '../errors/dcb-error.js';

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
export type WebhookVerificationCode =
  | 'header_missing'
  | 'header_malformed'
  | 'timestamp_invalid'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  | 'body_not_raw'
  | 'body_not_json'
  | 'event_invalid';

/** The one error verifyWebhook throws; its `code` says which check failed. Never carries a secret or the signature. */
export class WebhookVerificationError extends DcbError<WebhookVerificationCode> {
  static override readonly kind: string = 'WebhookVerificationError';
  override readonly name: string = 'WebhookVerificationError';

  constructor(code: WebhookVerificationCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** Codes that mean the request did not prove it came from the service (as opposed to a bad body). */
export function isAuthenticationFailure(code: WebhookVerificationCode): boolean {
  return (
    code === 'header_missing' ||
    code === 'header_malformed' ||
    code === 'timestamp_invalid' ||
    code === 'timestamp_out_of_tolerance' ||
    code === 'signature_mismatch'
  );
}
