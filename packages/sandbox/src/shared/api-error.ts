import { SERVICE_ERROR_CODES } from '@dcbkit/core/schemas';
import type { ErrorCode } from './service-types.js';

/**
 * Codes of the sandbox's own HTTP answers (its control endpoints, unknown routes, its own
 * failures); they exist only in the sandbox (docs/sandbox.md). Every code a real client can meet
 * is in core's SERVICE_ERROR_CODES.
 */
export const SANDBOX_HTTP_ERROR_CODES = {
  'SBX-400': { httpStatus: 400, meaning: 'invalid request to a sandbox control endpoint' },
  'SBX-401': { httpStatus: 401, meaning: 'the control endpoints need the sandbox control token' },
  'SBX-404': { httpStatus: 404, meaning: 'no such route' },
  'SBX-405': { httpStatus: 405, meaning: 'method not allowed on this route' },
  'SBX-409': { httpStatus: 409, meaning: 'the sandbox record is not in a state that allows this' },
  'SBX-500': { httpStatus: 500, meaning: 'the sandbox failed; see its log' },
} as const satisfies Record<string, { httpStatus: number; meaning: string }>;

/** A code an error envelope of the sandbox can carry: the spec's, or one of SANDBOX_HTTP_ERROR_CODES. */
export type HttpErrorCode = ErrorCode | keyof typeof SANDBOX_HTTP_ERROR_CODES;

/** The HTTP status and retryability the spec (or the sandbox's own table) gives a code. */
export function httpErrorCodeInfo(code: HttpErrorCode): { httpStatus: number; retryable: boolean } {
  const known =
    code in SERVICE_ERROR_CODES
      ? SERVICE_ERROR_CODES[code as ErrorCode]
      : SANDBOX_HTTP_ERROR_CODES[code as keyof typeof SANDBOX_HTTP_ERROR_CODES];
  return { httpStatus: known.httpStatus, retryable: 'retryable' in known && known.retryable === true };
}

export interface ApiErrorOptions {
  retryAfterSeconds?: number;
  headers?: Record<string, string>;
}

/**
 * A refusal with one of the spec's error codes (or the sandbox's SBX ones), thrown by route
 * handlers; http/error-envelope.ts turns it into the error envelope. Never leaves the sandbox.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: HttpErrorCode;
  readonly httpStatus: number;
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | undefined;
  readonly headers: Record<string, string>;

  constructor(code: HttpErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.code = code;
    const { httpStatus, retryable } = httpErrorCodeInfo(code);
    this.httpStatus = httpStatus;
    this.retryable = retryable;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.headers = options.headers ?? {};
  }
}
