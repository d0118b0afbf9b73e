import {
  ERROR_CODES as SERVICE_ERROR_CODES,
  type ErrorCode as ServiceErrorCode,
} from '../schemas/error-codes.js';

/**
 * The codes dcbkit itself raises, beside the service's own (`PAY-101`, `CAT-102`…, which stay as
 * the spec writes them). One table for the client, the webhook handler, the partner routes, the
 * stores and configuration: branch on `error.code`, never on the message.
 *
 * `httpStatus` is what a partner route answers the browser for the code, where it answers at all.
 */
export const DCB_ERROR_CODES = {
  // Configuration: thrown at creation, before anything is sent.
  invalid_option: { meaning: 'an option is missing, of the wrong type or out of range' },
  invalid_env: { meaning: 'environment variables are missing or inconsistent' },
  environment_mismatch: { meaning: 'a client ID of the other environment' },
  unknown_client_id_prefix: { meaning: 'a client ID that is neither svc_test_ nor svc_live_' },

  // Talking to the service.
  token_refused: { meaning: 'the token endpoint refused the client ID and secret' },
  wrong_base_url: { meaning: 'the base URL answered something that is not the service' },
  service_unreachable: { meaning: 'no connection to the service could be made' },
  timeout: { meaning: 'no complete answer within the time allowed' },
  aborted: { meaning: 'the caller aborted the request (AbortSignal)' },
  response_too_large: { meaning: 'the answer was larger than the client accepts' },
  unexpected_response: { meaning: 'the service answered a shape the spec does not allow' },

  // Webhook verification (WebhookVerificationError).
  header_missing: { meaning: 'no Service-Signature header' },
  header_malformed: { meaning: 'the header is not t=<seconds>,v1=<hex>[,…]' },
  timestamp_invalid: { meaning: 't is not a whole number of seconds' },
  timestamp_out_of_tolerance: { meaning: 't is further than the tolerance from now' },
  signature_mismatch: { meaning: 'no v1 entry matches any configured secret' },
  body_not_raw: { meaning: 'the body was handed over parsed instead of as the received bytes' },
  body_not_json: { meaning: 'the signed body is not JSON' },
  event_invalid: { meaning: 'the signed body is JSON but not a webhook event' },

  // Reading a request body on Node.
  body_too_large: { meaning: 'the body is larger than the limit', httpStatus: 413 },
  body_consumed: { meaning: 'a body parser read the body and kept no raw bytes', httpStatus: 500 },
  body_incomplete: { meaning: 'the client went away before the body was complete', httpStatus: 400 },
  body_timeout: { meaning: 'the body did not arrive within the time allowed', httpStatus: 408 },

  // Webhook processing.
  processing_failed: { meaning: 'the store, the ledger or a listener failed; the service will retry' },

  // Partner routes: what the browser is answered.
  unauthenticated: { meaning: 'no signed-in account', httpStatus: 401 },
  invalid_request: { meaning: 'a field is missing or malformed', httpStatus: 400 },
  not_found: { meaning: 'no such offer, payment or subscription for this account', httpStatus: 404 },
  offer_unavailable: { meaning: 'the service will not sell this offer now', httpStatus: 409 },
  already_owned: { meaning: 'a one-time item the account already has', httpStatus: 409 },
  trial_used: { meaning: 'the subscriber already had this product’s trial', httpStatus: 409 },
  conflict: { meaning: 'the subscription is not in a state that allows this', httpStatus: 409 },
  rate_limited: { meaning: 'the service asked to slow down', httpStatus: 429 },
  service_unavailable: { meaning: 'the service failed or could not be reached', httpStatus: 502 },
  cross_site_request: {
    meaning: 'a state-changing request from another site, or without its form token',
    httpStatus: 403,
  },

  // Entitlements and offers.
  entitlement_not_found: { meaning: 'no entitlement for this account and product' },
  not_consumable: { meaning: 'only CONSUMABLE entitlements have units' },
  entitlement_revoked: { meaning: 'access has ended' },
  no_units_left: { meaning: 'every unit bought has been used' },
  invalid_offer: { meaning: 'an offer does not match the offer schema' },
  duplicate_offer: { meaning: 'two offers share an offerUid' },
  mixed_product_types: { meaning: 'offers of one product disagree on the type' },
} as const satisfies Record<string, { meaning: string; httpStatus?: number }>;

/** A code dcbkit raises itself. */
export type KitErrorCode = keyof typeof DCB_ERROR_CODES;

/** A spec error code, or a newer one the service may add (autocompletes the known ones). */
export type ApiErrorCode = ServiceErrorCode | (string & {});

/** Every code a DcbError can carry: dcbkit's own, or the service's. */
export type DcbErrorCode = KitErrorCode | ServiceErrorCode;

export function isKitErrorCode(code: string): code is KitErrorCode {
  return Object.hasOwn(DCB_ERROR_CODES, code);
}

/** True where the spec's error table calls the code retryable (SEC-001, PAY-101, PAY-103, PAY-104). */
export function specSaysRetryable(code: string): boolean {
  const entry = (SERVICE_ERROR_CODES as Record<string, { retryable?: boolean }>)[code];
  return entry?.retryable === true;
}
