import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../shared/api-error.js';
import { controlAccess } from './control-access.js';
import { errorReply } from './error-envelope.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import type { Reply } from './reply.js';
import type { Router } from './router.js';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Turns the router into a node:http listener: routing, body reading, errors, writing the reply. */
export function createRequestListener(router: Router, log: (line: string) => void, controlToken?: string) {
  const guard = controlAccess(controlToken);
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    let reply: Reply;
    try {
      reply = await dispatch(router, request, guard);
    } catch (error) {
      log(
        `sandbox error on ${request.method} ${request.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      reply = errorReply(new ApiError('SBX-500', 'The sandbox failed on this request; see its log.'));
    }
    response.writeHead(reply.status, reply.headers);
    response.end(request.method === 'HEAD' ? undefined : reply.body);
  };
}

async function dispatch(
  router: Router,
  request: IncomingMessage,
  guard: ReturnType<typeof controlAccess>,
): Promise<Reply> {
  const method = request.method ?? 'GET';
  // Only the path and query matter; the host part is never trusted or used.
  const url = new URL(request.url ?? '/', 'http://sandbox.invalid');
  const refused = guard(url, request.headers);
  if (refused) {
    request.resume();
    return refused;
  }
  const match = router.match(method, url.pathname);
  if (match.kind === 'not-found') {
    request.resume();
    return errorReply(new ApiError('SBX-404', `No route ${method} ${url.pathname}.`));
  }
  if (match.kind === 'method-not-allowed') {
    request.resume();
    return errorReply(
      new ApiError('SBX-405', `${method} is not allowed on ${url.pathname}.`, {
        headers: { allow: match.allow.join(', ') },
      }),
    );
  }
  let body: Buffer = Buffer.alloc(0);
  if (METHODS_WITH_BODY.has(method)) {
    try {
      body = await readBody(request);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return errorReply(new ApiError('VAL-002', error.message));
      throw error;
    }
  } else {
    request.resume();
  }
  return match.handler({ method, url, params: match.params, headers: request.headers, body });
}
