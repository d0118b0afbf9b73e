import { mediaType } from '../http/read-body.js';
import type { RouteRequest } from '../http/router.js';
import { ApiError } from '../shared/api-error.js';

/** The JSON body of an API request. Throws VAL-002 for another media type or malformed JSON. */
export function readJsonBody(request: RouteRequest): unknown {
  const type = mediaType(request.headers);
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new ApiError('VAL-002', 'The body must be application/json.');
  }
  try {
    return JSON.parse(request.body.toString('utf8'));
  } catch {
    throw new ApiError('VAL-002', 'The body is not valid JSON.');
  }
}
