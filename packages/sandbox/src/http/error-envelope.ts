import { SandboxRefusal } from '../refusals/refusals.js';
import { ApiError } from '../shared/api-error.js';
import { jsonReply, type Reply } from './reply.js';
import type { RouteHandler, RouteRequest } from './router.js';

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

/** The HTTP face of a service's refusal: same code and message, the code's status. */
export function refusalError(refusal: SandboxRefusal): ApiError {
  return new ApiError(
    refusal.code,
    refusal.message,
    refusal.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: refusal.retryAfterSeconds },
  );
}

/**
 * Wraps a handler so that a thrown ApiError, or a service's SandboxRefusal, becomes the spec's
 * error envelope with the code's HTTP status (and Retry-After when a retry may succeed). Anything
 * else goes on to the listener, which answers SBX-500.
 */
export function withErrorEnvelope(handler: (request: RouteRequest) => Reply | Promise<Reply>): RouteHandler {
  return async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      if (error instanceof ApiError) return errorReply(error);
      if (error instanceof SandboxRefusal) return errorReply(refusalError(error));
      throw error;
    }
  };
}
