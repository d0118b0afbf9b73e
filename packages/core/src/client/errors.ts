import { DcbError } from '../errors/dcb-error.js';
import type { ApiErrorCode } from '../errors/error-codes.js';
import type { ServiceErrorCode } from '../schemas/api-error-codes.js';
import type { RequestIssue } from '../schemas/create-payment.js';

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
export class DcbApiError extends DcbError<ApiErrorCode> {
  static override readonly kind: string = 'DcbApiError';
  override readonly name: string = 'DcbApiError';
  /** The HTTP status the service answered (for `source: 'client'`, the one it would have answered). */
  declare readonly httpStatus: number;
  /** The parsed response body; undefined when the client refused before sending. */
  readonly body: unknown;
  /** `client` when nothing was sent because the input already breaks the spec. */
  readonly source: 'service' | 'client';
  /** For `source: 'client'`: every problem found, each with its VAL code and path. */
  readonly issues: readonly RequestIssue[];
  readonly method: string;
  readonly path: string;

  constructor(init: DcbApiErrorInit) {
    // `retryable`: the body's word, false when absent ("clients retry only when retryable is true").
    super(init.code, init.message, {
      httpStatus: init.httpStatus,
      retryable: init.retryable === true,
      retryAfterSeconds: init.retryAfterSeconds,
      details: { method: init.method, path: init.path },
    });
    this.body = init.body;
    this.source = init.source ?? 'service';
    this.issues = init.issues ?? [];
    this.method = init.method;
    this.path = init.path;
  }
}

/**
 * True when `error` is a DcbApiError, and, when `code` is given, carries that code.
 *
 * @example
 * if (isDcbApiError(error, 'SEC-001')) retryLater(error.retryAfterSeconds);
 */
export function isDcbApiError<C extends ServiceErrorCode>(
  error: unknown,
  code?: C,
): error is DcbApiError & { readonly code: C } {
  return error instanceof DcbApiError && (code === undefined || error.code === code);
}
