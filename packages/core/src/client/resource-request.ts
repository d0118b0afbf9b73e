import type { z } from 'zod';
import { successEnvelopeSchema } from '../schemas/envelope.js';
import { checkUid } from './check-input.js';
import type { RequestOptions } from './client-options.js';
import type { PlannedRequest } from './planned-request.js';
import { readApiAnswer } from './read-answer.js';

/** Sends an authenticated API request (the runner bound to the client's token cache). */
export type SendAuthenticated = <T>(request: PlannedRequest<T>, call?: RequestOptions) => Promise<T>;

/** The `data` of a success envelope, validated by `schema`; unknown extra fields are dropped. */
export function envelopeData<T>(schema: z.ZodType<T>): z.ZodType<T> {
  return successEnvelopeSchema(schema).transform((envelope) => envelope.data);
}

/** A request whose 2xx answer is a success envelope of `data`. */
export function apiRequest<T>(
  init: Omit<PlannedRequest<T>, 'read' | 'safeToRepeat'> & { safeToRepeat?: boolean },
  data: z.ZodType<T>,
): PlannedRequest<T> {
  return {
    ...init,
    safeToRepeat: init.safeToRepeat ?? init.method === 'GET',
    read: (answer, context) => readApiAnswer(answer, data, context),
  };
}

export const JSON_CONTENT = { 'content-type': 'application/json' } as const;

/**
 * The request target for a path template with one `{name}`, filled with the checked, URL-encoded
 * id: `resourceTarget('GET', '/v1/payments/{paymentUid}', uid)`. Throws VAL-001/VAL-002 before sending.
 */
export function resourceTarget(method: 'GET' | 'POST', path: string, id: unknown): string {
  const name = /\{(\w+)\}/.exec(path)?.[1] ?? 'id';
  return path.replace(`{${name}}`, encodeURIComponent(checkUid(id, { method, path, name })));
}
