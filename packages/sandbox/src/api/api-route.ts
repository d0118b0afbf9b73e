import type { Reply } from '../http/reply.js';
import type { RouteHandler, RouteRequest } from '../http/router.js';
import { SandboxRefusal } from '../refusals/refusals.js';
import { ApiError, errorReply } from './api-error.js';

/**
 * Wraps an API handler so that a thrown ApiError, or a service's SandboxRefusal, becomes the
 * spec's error envelope with the code's HTTP status (and Retry-After when a retry may succeed).
 */
export function apiRoute(handler: (request: RouteRequest) => Reply | Promise<Reply>): RouteHandler {
  return async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      if (error instanceof ApiError) return errorReply(error);
      if (error instanceof SandboxRefusal) return errorReply(ApiError.fromRefusal(error));
      throw error;
    }
  };
}
