import { DcbApiError, DcbClientError } from '../client/errors.js';
import { RouteError } from './route-error.js';

/**
 * Translates what the client threw into what a partner route answers. Service details stay in
 * the log (the cause); the browser gets a code and a sentence.
 */
export function fromClientError(error: unknown, notFound: string): RouteError {
  if (error instanceof DcbApiError) {
    const cause = { cause: error };
    switch (error.code) {
      case 'PAY-107':
      case 'SUB-101':
      case 'CAT-102':
        return new RouteError('not_found', 404, notFound, cause);
      case 'CAT-103':
      case 'CAT-104':
      case 'SBR-104':
        return new RouteError('offer_unavailable', 409, 'This offer cannot be bought right now.', cause);
      case 'CAT-109':
        return new RouteError('already_owned', 409, 'You already own this item.', cause);
      case 'SUB-108':
        return new RouteError('trial_used', 409, 'The free trial of this product was already used.', cause);
      case 'SUB-104':
        return new RouteError('conflict', 409, 'This subscription has already ended.', cause);
      case 'SUB-105':
        return new RouteError('conflict', 409, 'No cancellation is scheduled for this subscription.', cause);
      case 'SEC-001':
        return new RouteError('rate_limited', 429, 'Too many requests; try again shortly.', {
          ...cause,
          retryAfterSeconds: error.retryAfterSeconds,
        });
      default:
        if (error.httpStatus === 400) {
          return new RouteError('invalid_request', 400, 'The request was refused as invalid.', cause);
        }
    }
  }
  if (error instanceof DcbClientError) {
    return new RouteError('service_unavailable', 502, 'The billing service is unavailable; try again.', {
      cause: error,
    });
  }
  throw error;
}
