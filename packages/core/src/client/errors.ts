import type { RequestIssue } from '../schemas/create-payment.js';
import { ERROR_CODES, type ErrorCode, isErrorCode } from '../schemas/error-codes.js';

/** A spec error code, or a newer one the service may add (autocompletes the known ones). */
export type ApiErrorCode = ErrorCode | (string & {});

/** Every error the client throws extends this, so `instanceof DcbClientError` tells them from bugs. */
export abstract class DcbClientError extends Error {}

export interface DcbApiErrorInit {
  code: ApiErrorCode;
  httpStatus: number;
  message: string;
  retryable?: boolean | undefined;
  retryAfterSeconds?: number | undefined;
  body?: unknown;
  source?: 'service' | 'client';
  issues?: readonly RequestIssue[];
  method: string;
  path: string;
}

/**
 * The service refused a request with one of the spec's error codes, or the client refused it
 * before sending (`source: 'client'`) with the code the service would have answered.
 *
 * @example
 * try {
 *   await client.payments.create({ mode: 'HOSTED', offerUid, returnUrl });
 * } catch (error) {
 *   if (isDcbApiError(error, 'CAT-103')) return showOfferUnavailable();
 *   throw error;
 * }
 */
export class DcbApiError extends DcbClientError {
  override readonly name = 'DcbApiError';
  /** The spec's code (`^[A-Z]{3}-[0-9]{3}$`). Branch on this, never on the message. */
  readonly code: ApiErrorCode;
  /** The HTTP status the service answered (for `source: 'client'`, the one it would have answered). */
  readonly httpStatus: number;
  /** The body's `retryable`; when absent, the spec's word for the code (SEC-001, PAY-101, PAY-103, PAY-104). */
  readonly retryable: boolean;
  /** The body's `retryAfterSeconds`, else the `Retry-After` header, when the service gave a delay. */
  readonly retryAfterSeconds: number | undefined;
  /** The parsed response body; undefined when the client refused before sending. */
  readonly body: unknown;
  /** `client` when nothing was sent because the input already breaks the spec. */
  readonly source: 'service' | 'client';
  /** For `source: 'client'`: every problem found, each with its VAL code and path. */
  readonly issues: readonly RequestIssue[];
  readonly method: string;
  readonly path: string;

  constructor(init: DcbApiErrorInit) {
    super(init.message);
    this.code = init.code;
    this.httpStatus = init.httpStatus;
    this.retryable = init.retryable ?? specSaysRetryable(init.code);
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.body = init.body;
    this.source = init.source ?? 'service';
    this.issues = init.issues ?? [];
    this.method = init.method;
    this.path = init.path;
  }

  /** Narrows to one code: `if (error.is('SUB-105')) ...`. */
  is<C extends ErrorCode>(code: C): this is DcbApiError & { readonly code: C } {
    return this.code === code;
  }
}

/** True where the spec's error table calls the code retryable (SEC-001, PAY-101, PAY-103, PAY-104). */
export function specSaysRetryable(code: string): boolean {
  if (!isErrorCode(code)) return false;
  const entry = ERROR_CODES[code];
  return 'retryable' in entry && entry.retryable;
}

/**
 * True when `error` is a DcbApiError, and, when `code` is given, carries that code.
 *
 * @example
 * if (isDcbApiError(error, 'SEC-001')) retryLater(error.retryAfterSeconds);
 */
export function isDcbApiError<C extends ErrorCode>(
  error: unknown,
  code?: C,
): error is DcbApiError & { readonly code: C } {
  return error instanceof DcbApiError && (code === undefined || error.code === code);
}

/**
 * `POST /oauth2/token` did not give a token: wrong credentials (dcbkit reads `ATH-001`), a
 * credential of the other environment, or the endpoint failing. Every call waiting on that
 * token receives this same error.
 */
export class DcbTokenError extends DcbClientError {
  override readonly name = 'DcbTokenError';
  readonly httpStatus: number;
  /** The error envelope's code, when the body had one. */
  readonly code: ApiErrorCode | undefined;
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | undefined;
  readonly body: unknown;

  constructor(init: {
    httpStatus: number;
    code: ApiErrorCode | undefined;
    message: string;
    retryable?: boolean | undefined;
    retryAfterSeconds?: number | undefined;
    body: unknown;
  }) {
    super(init.message);
    this.httpStatus = init.httpStatus;
    this.code = init.code;
    this.retryable = init.retryable ?? (init.code !== undefined && specSaysRetryable(init.code));
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.body = init.body;
  }
}

/**
 * No answer: `timeout` when none came within `timeoutMs`, `connection` when the connection
 * failed or was dropped. The request may or may not have reached the service.
 */
export type DcbNetworkErrorReason = 'timeout' | 'connection';

export class DcbNetworkError extends DcbClientError {
  override readonly name = 'DcbNetworkError';
  readonly reason: DcbNetworkErrorReason;
  readonly method: string;
  readonly path: string;

  constructor(
    reason: DcbNetworkErrorReason,
    init: { method: string; path: string; message: string; cause?: unknown },
  ) {
    super(init.message, { cause: init.cause });
    this.reason = reason;
    this.method = init.method;
    this.path = init.path;
  }
}

/**
 * The service answered something the spec does not allow: `not_json` (an HTML error page from a
 * proxy, say) or `unexpected_shape` (JSON that is neither the expected resource nor an error envelope).
 */
export type DcbResponseErrorReason = 'not_json' | 'unexpected_shape';

export class DcbResponseError extends DcbClientError {
  override readonly name = 'DcbResponseError';
  readonly reason: DcbResponseErrorReason;
  readonly httpStatus: number;
  /** The `Retry-After` header, when the answer carried one. */
  readonly retryAfterSeconds: number | undefined;
  /** Parsed JSON when it was JSON, else the text. */
  readonly body: unknown;
  readonly method: string;
  readonly path: string;

  constructor(
    reason: DcbResponseErrorReason,
    init: {
      httpStatus: number;
      retryAfterSeconds?: number | undefined;
      body: unknown;
      method: string;
      path: string;
      message: string;
      cause?: unknown;
    },
  ) {
    super(init.message, { cause: init.cause });
    this.reason = reason;
    this.httpStatus = init.httpStatus;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.body = init.body;
    this.method = init.method;
    this.path = init.path;
  }
}

/**
 * createClient refused its options, before any request:
 * - `environment_mismatch`: a `svc_live_` client ID with sandbox, or `svc_test_` with production.
 * - `unknown_client_id_prefix`: a client ID that is neither `svc_test_…` nor `svc_live_…`.
 * - `invalid_option`: any other option is missing or out of range (`option` names it).
 */
export type DcbConfigurationErrorReason =
  | 'environment_mismatch'
  | 'unknown_client_id_prefix'
  | 'invalid_option';

export class DcbConfigurationError extends DcbClientError {
  override readonly name = 'DcbConfigurationError';
  readonly reason: DcbConfigurationErrorReason;
  readonly option: string;

  constructor(reason: DcbConfigurationErrorReason, option: string, message: string) {
    super(message);
    this.reason = reason;
    this.option = option;
  }
}
