import type { Reply } from '../http/reply.js';
import type { RouteHandler, RouteRequest } from '../http/router.js';
import { ApiError, errorReply } from './api-error.js';

/** Wraps an API handler so that a thrown ApiError becomes the spec's error envelope. */
export function apiRoute(handler: (request: RouteRequest) => Reply | Promise<Reply>): RouteHandler {
  return async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      if (error instanceof ApiError) return errorReply(error);
      throw error;
    }
  };
}
