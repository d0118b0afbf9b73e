import { DcbError } from '../errors/dcb-error.js';
import { DCB_ERROR_CODES } from '../errors/error-codes.js';

/**
 * Why a partner route refused the browser's request. Stable: branch on it, or let the adapter
 * answer its `httpStatus` (from DCB_ERROR_CODES).
 * - `unauthenticated` (401): no signed-in account.
 * - `invalid_request` (400): a field is missing or malformed.
 * - `not_found` (404): no such offer, payment or subscription for this account. Someone else's is
 *   "not found" too, so nobody learns what exists by guessing ids.
 * - `offer_unavailable` (409): the service will not sell this offer now.
 * - `already_owned` (409): a one-time item the account already has.
 * - `trial_used` (409): the subscriber already had this product's trial.
 * - `conflict` (409): the subscription is not in a state that allows this.
 * - `rate_limited` (429): the service asked to slow down; `retryAfterSeconds` says for how long.
 * - `service_unavailable` (502): the service failed or could not be reached.
 * - `cross_site_request` (403): another site's page posted it, or a form came without its token.
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
  | 'service_unavailable'
  | 'cross_site_request';

const ROUTE_CODES: ReadonlySet<string> = new Set<RouteErrorCode>([
  'unauthenticated',
  'invalid_request',
  'not_found',
  'offer_unavailable',
  'already_owned',
  'trial_used',
  'conflict',
  'rate_limited',
  'service_unavailable',
  'cross_site_request',
]);

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
  return error instanceof DcbError && ROUTE_CODES.has(error.code);
}
