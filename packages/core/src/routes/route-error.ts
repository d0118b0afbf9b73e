import { type CodesOf, isCodeOf } from '../errors/code-groups.js';
import { DcbError } from '../errors/dcb-error.js';
import { DCB_ERROR_CODES } from '../errors/error-codes.js';

/**
 * Why a partner route refused the browser's request: the `route` group of DCB_ERROR_CODES, whose
 * rows give each code's meaning and the `httpStatus` the adapters answer. Stable: branch on it.
 * - `unauthenticated` (401): no signed-in account.
 * - `invalid_request` (400): a field is missing or malformed.
 * - `not_found` (404): no such offer, payment or subscription for this account. Someone else's is
 *   "not found" too, so nobody learns what exists by guessing ids.
 * - `offer_unavailable` (409): the service will not sell this offer now.
 * - `already_owned` (409): a one-time item the account already has.
 * - `already_subscribed` (409): the account has a live subscription to the product: manage it, do
 *   not pay again.
 * - `payment_pending` (409): a payment for the product is being started or confirmed; try again
 *   in a moment.
 * - `trial_used` (409): the subscriber already had this product's trial.
 * - `conflict` (409): the subscription is not in a state that allows this.
 * - `rate_limited` (429): the service asked to slow down; `retryAfterSeconds` says for how long.
 * - `service_unavailable` (502): the service failed or could not be reached.
 * - `cross_site_request` (403): another site's page posted it, or a form came without its token
 *   (or with one that expired, or was made for another account or session).
 * - `method_not_allowed` (405, with `Allow: POST`): checkout, cancel, resume and the other
 *   state-changing routes act only on POST, so a link or a navigation never changes anything.
 */
export type RouteErrorCode = CodesOf<'route'>;

/** A refusal a partner route answers the browser with (small JSON, no stack, no upstream detail). */
export function routeError(
  code: RouteErrorCode,
  message: string,
  options: { cause?: unknown; retryAfterSeconds?: number | undefined } = {},
): DcbError<RouteErrorCode> {
  return new DcbError(code, message, { ...options, httpStatus: DCB_ERROR_CODES[code].httpStatus });
}

/** True for the refusals a route answers itself; anything else goes to the app's error handling. */
export function isRouteError(error: unknown): error is DcbError<RouteErrorCode> {
  return error instanceof DcbError && isCodeOf('route', error.code);
}
