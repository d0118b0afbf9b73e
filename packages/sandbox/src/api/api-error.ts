import type { ErrorCode } from '@dcbkit/core';
import { ERROR_CODES } from '@dcbkit/core/schemas';
import { jsonReply, type Reply } from '../http/reply.js';
import type { SandboxRefusal } from '../refusals/refusals.js';

/**
 * Codes of the sandbox's own control endpoints; they exist only in the sandbox (docs/sandbox.md).
 * Every code a real client can meet is in core's ERROR_CODES.
 */
export const SANDBOX_ERROR_CODES = {
  'SBX-400': { httpStatus: 400, meaning: 'invalid request to a sandbox control endpoint' },
  'SBX-401': { httpStatus: 401, meaning: 'the control endpoints need the sandbox control token' },
  'SBX-404': { httpStatus: 404, meaning: 'no such route' },
  'SBX-405': { httpStatus: 405, meaning: 'method not allowed on this route' },
  'SBX-500': { httpStatus: 500, meaning: 'the sandbox failed; see its log' },
} as const satisfies Record<string, { httpStatus: number; meaning: string }>;

export type SandboxErrorCode = ErrorCode | keyof typeof SANDBOX_ERROR_CODES;

export interface ApiErrorOptions {
  retryAfterSeconds?: number;
  headers?: Record<string, string>;
}

/** A refusal with one of the spec's error codes; routes turn it into the error envelope. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: SandboxErrorCode;
  readonly httpStatus: number;
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | undefined;
  readonly headers: Record<string, string>;

  constructor(code: SandboxErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.code = code;
    const known =
      code in ERROR_CODES
        ? ERROR_CODES[code as ErrorCode]
        : SANDBOX_ERROR_CODES[code as keyof typeof SANDBOX_ERROR_CODES];
    this.httpStatus = known.httpStatus;
    this.retryable = 'retryable' in known && known.retryable === true;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.headers = options.headers ?? {};
  }

  /** The HTTP face of a service's refusal: same code and message, the code's status. */
  static fromRefusal(refusal: SandboxRefusal): ApiError {
    return new ApiError(
      refusal.code,
      refusal.message,
      refusal.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: refusal.retryAfterSeconds },
    );
  }
}

/**
 * The spec's error envelope. `retryable` appears only when a retry could succeed, and a known
 * delay goes both in `retryAfterSeconds` and in the Retry-After header.
 */
export function errorReply(error: ApiError): Reply {
  const headers: Record<string, string> = { ...error.headers };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return jsonReply(
    error.httpStatus,
    {
      success: false,
      error: {
        code: error.code,
        message: error.message,
        ...(error.retryable ? { retryable: true } : {}),
        ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
      },
    },
    headers,
  );
}
