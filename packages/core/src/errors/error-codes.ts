import { SERVICE_ERROR_CODES, type ServiceErrorCode } from '../schemas/api-error-codes.js';

/**
 * What a code is about, and so which error carries it and who answers it:
 * - `configuration`: an option or the environment, refused at creation.
 * - `client`: talking to the service.
 * - `verification`: a webhook's signature, header or body (WebhookVerificationError).
 * - `body`: reading a request body on Node.
 * - `processing`: a verified webhook the handler could not process now.
 * - `route`: a partner route's refusal of the browser's request (RouteErrorCode).
 * - `access`: the access gate's refusal.
 * - `entitlement`: consumeUnit and the other entitlement operations.
 * - `offer`: defineOffers refusing the offer list.
 */
export type ErrorCodeGroup =
  | 'configuration'
  | 'client'
  | 'verification'
  | 'body'
  | 'processing'
  | 'route'
  | 'access'
  | 'entitlement'
  | 'offer';

/** One row of DCB_ERROR_CODES. */
export interface ErrorCodeRow {
  readonly group: ErrorCodeGroup;
  readonly meaning: string;
  /** The status the kit answers with the code, where it answers HTTP with it at all. */
  readonly httpStatus?: number;
  /** The webhook did not prove it came from the service (401), as opposed to a bad body (400). */
  readonly authenticationFailure?: true;
}

/**
 * The codes dcbkit itself raises, beside the service's own (`PAY-101`, `CAT-102`…, which stay as
 * the spec writes them). One table for the client, the webhook handler, the partner routes, the
 * stores and configuration: branch on `error.code`, never on the message. Every code dcbkit puts
 * on the wire (a webhook refusal's `error`, a route refusal's `error.code`) is a row here.
 *
 * The code unions (RouteErrorCode, WebhookVerificationCode…), the route and authentication-failure
 * checks and the statuses answered are derived from it (code-groups.ts): a new code is one row.
 */
export const DCB_ERROR_CODES = {
  invalid_option: {
    group: 'configuration',
    meaning: 'an option is missing, of the wrong type or out of range',
  },
  unknown_option: {
    group: 'configuration',
    meaning:
      'an option the function does not know: a misspelling, or an old name (the message names its replacement)',
  },
  invalid_env: { group: 'configuration', meaning: 'environment variables are missing or inconsistent' },
  environment_mismatch: { group: 'configuration', meaning: 'a client ID of the other environment' },
  unknown_client_id_prefix: {
    group: 'configuration',
    meaning: 'a client ID that is neither svc_test_ nor svc_live_',
  },
  crypto_unavailable: {
    group: 'configuration',
    meaning:
      'the runtime lacks the crypto a call needs: node:crypto for the synchronous verifyWebhook and signWebhook (an edge runtime: use the async ones)',
  },

  token_refused: { group: 'client', meaning: 'the token endpoint refused the client ID and secret' },
  wrong_base_url: { group: 'client', meaning: 'the base URL answered something that is not the service' },
  service_unreachable: { group: 'client', meaning: 'no connection to the service could be made' },
  timeout: { group: 'client', meaning: 'no complete answer within the time allowed' },
  aborted: { group: 'client', meaning: 'the caller aborted the request (AbortSignal)' },
  response_too_large: { group: 'client', meaning: 'the answer was larger than the client accepts' },
  unexpected_response: { group: 'client', meaning: 'the service answered a shape the spec does not allow' },

  header_missing: {
    group: 'verification',
    meaning: 'no Service-Signature header',
    httpStatus: 401,
    authenticationFailure: true,
  },
  header_malformed: {
    group: 'verification',
    meaning: 'the header is not t=<seconds>,v1=<hex>[,…]',
    httpStatus: 401,
    authenticationFailure: true,
  },
  timestamp_invalid: {
    group: 'verification',
    meaning: 't is not a whole number of seconds',
    httpStatus: 401,
    authenticationFailure: true,
  },
  timestamp_out_of_tolerance: {
    group: 'verification',
    meaning: 't is further than the tolerance from now',
    httpStatus: 401,
    authenticationFailure: true,
  },
  signature_mismatch: {
    group: 'verification',
    meaning: 'no v1 entry matches any configured secret',
    httpStatus: 401,
    authenticationFailure: true,
  },
  // 500, not 400: the partner's mounting lost the bytes; the service's request was fine.
  body_not_raw: {
    group: 'verification',
    meaning: 'the body was handed over parsed instead of as the received bytes',
    httpStatus: 500,
  },
  body_not_json: { group: 'verification', meaning: 'the signed body is not JSON', httpStatus: 400 },
  event_invalid: {
    group: 'verification',
    meaning: 'the signed body is JSON but not a webhook event',
    httpStatus: 400,
  },

  body_too_large: { group: 'body', meaning: 'the body is larger than the limit', httpStatus: 413 },
  body_consumed: {
    group: 'body',
    meaning: 'a body parser read the body and kept no raw bytes',
    httpStatus: 500,
  },
  body_incomplete: {
    group: 'body',
    meaning: 'the client went away before the body was complete',
    httpStatus: 400,
  },
  body_timeout: {
    group: 'body',
    meaning: 'the body did not arrive within the time allowed',
    httpStatus: 408,
  },

  in_progress: {
    group: 'processing',
    meaning: 'another delivery of the same event is being processed; the service will retry',
    httpStatus: 409,
  },
  processing_failed: {
    group: 'processing',
    meaning: 'the store, the ledger or a listener failed; the service will retry',
    httpStatus: 500,
  },
  processing_timeout: {
    group: 'processing',
    meaning: 'the store, the ledger or a listener took longer than allowed; the service will retry',
    httpStatus: 503,
  },
  ledger_contract_violated: {
    group: 'processing',
    meaning:
      "the ledger's claim() answered outside its contract (a bare 'new' is the old one); the service will retry",
    httpStatus: 500,
  },
  internal_error: {
    group: 'processing',
    meaning: 'verifying the webhook failed unexpectedly, not because of the request',
    httpStatus: 500,
  },

  unauthenticated: { group: 'route', meaning: 'no signed-in account', httpStatus: 401 },
  invalid_request: { group: 'route', meaning: 'a field is missing or malformed', httpStatus: 400 },
  not_found: {
    group: 'route',
    meaning: 'no such offer, payment or subscription for this account',
    httpStatus: 404,
  },
  offer_unavailable: { group: 'route', meaning: 'the service will not sell this offer now', httpStatus: 409 },
  already_owned: { group: 'route', meaning: 'a one-time item the account already has', httpStatus: 409 },
  already_subscribed: {
    group: 'route',
    meaning: 'the account already has a live subscription to this product',
    httpStatus: 409,
  },
  payment_pending: {
    group: 'route',
    meaning: 'a payment of the account for this product is still being started or confirmed',
    httpStatus: 409,
  },
  trial_used: {
    group: 'route',
    meaning: 'the subscriber already had this product’s trial',
    httpStatus: 409,
  },
  conflict: {
    group: 'route',
    meaning: 'the subscription is not in a state that allows this',
    httpStatus: 409,
  },
  rate_limited: { group: 'route', meaning: 'the service asked to slow down', httpStatus: 429 },
  service_unavailable: {
    group: 'route',
    meaning: 'the service failed or could not be reached',
    httpStatus: 502,
  },
  method_not_allowed: {
    group: 'route',
    meaning: 'a state-changing route reached by a method other than POST (a link, a navigation)',
    httpStatus: 405,
  },
  cross_site_request: {
    group: 'route',
    meaning: 'a state-changing request from another site, or without its form token',
    httpStatus: 403,
  },

  access_required: {
    group: 'access',
    meaning: 'the account has no access to the product behind the gate',
    httpStatus: 403,
  },

  // 503 is the webhook handler's answer when an event overtook the payment that creates the
  // entitlement; consumeUnit's error carries no status.
  entitlement_not_found: {
    group: 'entitlement',
    meaning: 'no entitlement for this account and product',
    httpStatus: 503,
  },
  line_pays_twice: {
    group: 'entitlement',
    meaning:
      'a phone line holds live subscriptions of one product under several accounts: it is charged for each',
  },
  // 503: the newer subscription could not be cancelled yet; the service's retry of the event tries again.
  line_cancel_failed: {
    group: 'entitlement',
    meaning:
      "linePolicy 'cancel-newer' could not cancel the newer subscription of a line that pays twice yet",
    httpStatus: 503,
  },
  not_consumable: { group: 'entitlement', meaning: 'only CONSUMABLE entitlements have units' },
  entitlement_revoked: { group: 'entitlement', meaning: 'access has ended' },
  no_units_left: { group: 'entitlement', meaning: 'every unit bought has been used' },

  invalid_offer: { group: 'offer', meaning: 'an offer does not match the offer schema' },
  duplicate_offer: { group: 'offer', meaning: 'two offers share an offerUid' },
  mixed_product_types: {
    group: 'offer',
    meaning: 'offers of one product disagree on the type or on unitAccessSeconds',
  },
} as const satisfies Record<string, ErrorCodeRow>;

/** A code dcbkit raises itself. */
export type KitErrorCode = keyof typeof DCB_ERROR_CODES;

/** A spec error code, or a newer one the service may add (autocompletes the known ones). */
export type ApiErrorCode = ServiceErrorCode | (string & {});

/**
 * Every code a DcbError can carry: dcbkit's own, or the service's. The one code union an app
 * branches on; its groups are data (each row's `group`), and a group argument picks theirs:
 * `DcbErrorCode<'route'>` is what a partner route refuses with, `DcbErrorCode<'verification'>`
 * what verifyWebhook throws, `DcbErrorCode<'service'>` the spec's own codes (`PAY-101`…).
 */
export type DcbErrorCode<Group extends ErrorCodeGroup | 'service' = ErrorCodeGroup | 'service'> =
  | { [C in KitErrorCode]: (typeof DCB_ERROR_CODES)[C]['group'] extends Group ? C : never }[KitErrorCode]
  | ('service' extends Group ? ServiceErrorCode : never);

export function isKitErrorCode(code: string): code is KitErrorCode {
  return Object.hasOwn(DCB_ERROR_CODES, code);
}

/** True where the spec's error table calls the code retryable (SEC-001, PAY-101, PAY-103, PAY-104). */
export function specSaysRetryable(code: string): boolean {
  const entry = (SERVICE_ERROR_CODES as Record<string, { retryable?: boolean }>)[code];
  return entry?.retryable === true;
}
