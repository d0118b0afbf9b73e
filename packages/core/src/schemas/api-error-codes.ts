/**
 * Every error code of the spec with its HTTP status. Branch on `code`, never on the message.
 * `retryable` is the spec's own word where it gives one; the body's `retryable` always wins.
 */
export const SERVICE_ERROR_CODES = {
  'ATH-002': { httpStatus: 401, meaning: 'token missing, malformed or not recognised' },
  'AUZ-002': { httpStatus: 403, meaning: 'the application lacks the capability for this route' },
  'VAL-001': { httpStatus: 400, meaning: 'a required field is missing' },
  'VAL-002': { httpStatus: 400, meaning: 'a field has an invalid format or value' },
  'VAL-006': { httpStatus: 400, meaning: 'unknown property, for example amount or msisdn in hosted mode' },
  'SEC-001': { httpStatus: 429, meaning: 'rate limit reached', retryable: true },
  'CAT-102': { httpStatus: 404, meaning: 'offer not found' },
  'CAT-103': { httpStatus: 422, meaning: 'offer is not active' },
  'CAT-104': { httpStatus: 403, meaning: 'the application is not authorised for this offer' },
  'CAT-109': { httpStatus: 409, meaning: 'this one-time item is already owned' },
  'PAY-101': { httpStatus: 402, meaning: 'subscriber balance is insufficient', retryable: true },
  'PAY-103': { httpStatus: 402, meaning: 'charge declined by the operator', retryable: true },
  'PAY-104': {
    httpStatus: 409,
    meaning: 'a request with this idempotency key is still in progress; retry shortly with the same key',
    retryable: true,
  },
  'PAY-105': { httpStatus: 409, meaning: 'idempotency key reused with a different payload' },
  'SBR-102': { httpStatus: 400, meaning: 'mobile number is invalid' },
  'SBR-104': { httpStatus: 422, meaning: 'this mobile operator is not supported' },
  'RSK-101': { httpStatus: 403, meaning: 'the subscriber has opted out of carrier billing' },
  'SUB-101': { httpStatus: 404, meaning: 'subscription not found' },
  'SUB-104': { httpStatus: 409, meaning: 'subscription is already canceled' },
  'SUB-105': { httpStatus: 409, meaning: 'no scheduled cancellation to withdraw' },
  'SUB-108': { httpStatus: 409, meaning: 'trial already used for this product' },
  // Codes the spec leaves unnamed; dcbkit's choices, recorded in docs/spec-gaps.md.
  'ATH-001': { httpStatus: 401, meaning: 'client credentials not recognised (token endpoint)' },
  'PAY-106': {
    httpStatus: 409,
    meaning: 'the payment can no longer be cancelled: it is not REQUIRES_ACTION',
  },
  'PAY-107': { httpStatus: 404, meaning: 'payment not found' },
} as const satisfies Record<string, { httpStatus: number; meaning: string; retryable?: boolean }>;

export type ServiceErrorCode = keyof typeof SERVICE_ERROR_CODES;

export function isServiceErrorCode(code: string): code is ServiceErrorCode {
  return Object.hasOwn(SERVICE_ERROR_CODES, code);
}

/** @deprecated Renamed `SERVICE_ERROR_CODES`: the service's codes, beside the kit's `DCB_ERROR_CODES`. */
export const ERROR_CODES = SERVICE_ERROR_CODES;
