import {
  type AuthenticationFailureCode,
  type CodesOf,
  isAuthenticationFailureCode,
} from '../errors/code-groups.js';
import { DcbError } from '../errors/dcb-error.js';

/**
 * Why a webhook was refused: the `verification` group of DCB_ERROR_CODES. Stable: branch on it,
 * log it, count it.
 * - `header_missing`: no Service-Signature header.
 * - `header_malformed`: not `t=<seconds>,v1=<hex>[,...]`, or no v1 entry.
 * - `timestamp_invalid`: `t` is not a whole number of seconds.
 * - `timestamp_out_of_tolerance`: `t` is further than the tolerance from now, in the past or the future.
 * - `signature_mismatch`: no v1 entry matches any configured secret.
 * - `body_not_raw`: the body was handed over parsed (or not at all) instead of as the received bytes.
 * - `body_not_json`: the signed body is not JSON.
 * - `event_invalid`: the signed body is JSON but not a webhook event.
 */
export type WebhookVerificationCode = CodesOf<'verification'>;

/** The one error verifyWebhook throws; its `code` says which check failed. Never carries a secret or the signature. */
export class WebhookVerificationError extends DcbError<WebhookVerificationCode> {
  static override readonly kind: string = 'WebhookVerificationError';
  override readonly name: string = 'WebhookVerificationError';

  constructor(code: WebhookVerificationCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/**
 * Codes that mean the request did not prove it came from the service (401), as opposed to a bad
 * body (400): the rows of DCB_ERROR_CODES marked `authenticationFailure`.
 */
export function isAuthenticationFailure(code: WebhookVerificationCode): code is AuthenticationFailureCode {
  return isAuthenticationFailureCode(code);
}
