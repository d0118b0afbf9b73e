/**
 * Why a partner route refused. Stable: branch on it, or let the adapter answer `httpStatus`.
 * - `unauthenticated` (401): no signed-in account.
 * - `invalid_request` (400): a field is missing or malformed.
 * - `not_found` (404): no such offer, payment or subscription for this account. Someone else's is
 *   "not found" too, so nobody learns what exists by guessing ids.
 * - `offer_unavailable` (409/422/403): the service will not sell this offer now.
 * - `already_owned` (409): a one-time item the account already has.
 * - `trial_used` (409): the subscriber already had this product's trial.
 * - `conflict` (409): the subscription is not in a state that allows this.
 * - `rate_limited` (429): the service asked to slow down; `retryAfterSeconds` says for how long.
 * - `service_unavailable` (502): the service failed or could not be reached.
 */
export type RouteErrorCode =
  | 'unauthenticated'
  | 'invalid_request'
  | 'not_found'
  | 'offer_unavailable'
  | 'already_owned'
  | 'trial_used'
  | 'conflict'
  | 'rate_limited'
  | 'service_unavailable';

export class RouteError extends Error {
  override readonly name = 'RouteError';
  readonly code: RouteErrorCode;
  readonly httpStatus: number;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: RouteErrorCode,
    httpStatus: number,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number | undefined } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.httpStatus = httpStatus;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** What a route answers: small JSON, no stack, no upstream detail. */
  toJSON(): { error: { code: RouteErrorCode; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}
