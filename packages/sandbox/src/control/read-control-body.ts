import type { z } from 'zod';
import { mediaType } from '../http/read-body.js';
import type { RouteRequest } from '../http/router.js';
import { ApiError } from '../shared/api-error.js';

/** The JSON body of a request to a control endpoint. Throws SBX-400. */
export function readControlJson(request: RouteRequest): unknown {
  if (mediaType(request.headers) !== 'application/json')
    throw new ApiError('SBX-400', 'Send application/json.');
  try {
    return JSON.parse(request.body.toString('utf8'));
  } catch {
    throw new ApiError('SBX-400', 'The body is not valid JSON.');
  }
}

/** The JSON body of a control request, checked with a schema. Throws SBX-400 with what was expected. */
export function readControlBody<T extends z.ZodType>(
  request: RouteRequest,
  schema: T,
  expected: string,
): z.output<T> {
  const parsed = schema.safeParse(readControlJson(request));
  if (!parsed.success) throw new ApiError('SBX-400', `Expected ${expected}.`);
  return parsed.data;
}
