import { DcbApiError } from '../client/errors.js';
import { type DcbError, isDcbError } from '../errors/dcb-error.js';
import { type RouteErrorCode, routeError } from './route-error.js';

/** What the client threw means the app is set up wrong: no retry by the subscriber will help. */
const MISCONFIGURATION: ReadonlySet<string> = new Set([
  'token_refused',
  'wrong_base_url',
  'invalid_option',
  'environment_mismatch',
  'unknown_client_id_prefix',
  // The token was refused again after a renewal, or the application lacks the route's capability.
  'ATH-002',
  'AUZ-002',
]);

/** True when the error is the partner's setup (credentials, base URL, capabilities), not the service's state. */
export function isMisconfiguration(error: unknown): error is DcbError {
  return isDcbError(error) && MISCONFIGURATION.has(error.code);
}

/**
 * Translates what the client threw into what a partner route answers the browser. Service
 * details stay in the cause; the browser gets a code and a sentence. A misconfiguration, an
 * abort or anything that is not the client's is thrown as it is, for the app's error handler:
 * telling the subscriber to try again would hide it.
 */
export function fromClientError(error: unknown, notFound: string): DcbError<RouteErrorCode> {
  if (isMisconfiguration(error) || !isDcbError(error)) throw error;
  if (error instanceof DcbApiError) {
    const cause = { cause: error };
    switch (error.code) {
      case 'PAY-107':
      case 'SUB-101':
      case 'CAT-102':
        return routeError('not_found', notFound, cause);
      case 'CAT-103':
      case 'CAT-104':
      case 'SBR-104':
        return routeError('offer_unavailable', 'This offer cannot be bought right now.', cause);
      case 'CAT-109':
        return routeError('already_owned', 'You already own this item.', cause);
      case 'SUB-108':
        return routeError('trial_used', 'The free trial of this product was already used.', cause);
      case 'SUB-104':
        return routeError('conflict', 'This subscription has already ended.', cause);
      case 'SUB-105':
        return routeError('conflict', 'No cancellation is scheduled for this subscription.', cause);
      case 'PAY-106':
        return routeError('conflict', 'This payment can no longer be cancelled.', cause);
      case 'SEC-001':
        return routeError('rate_limited', 'Too many requests; try again shortly.', {
          ...cause,
          retryAfterSeconds: error.retryAfterSeconds,
        });
      default:
        if (error.httpStatus === 400) {
          return routeError('invalid_request', 'The request was refused as invalid.', cause);
        }
    }
  }
  if (isDcbError(error, 'aborted')) throw error;
  return routeError('service_unavailable', 'The billing service is unavailable; try again.', {
    cause: error,
  });
}
