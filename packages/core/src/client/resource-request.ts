import type { z } from 'zod';
import { successEnvelopeSchema } from '../schemas/envelope.js';
import { readApiAnswer } from './read-answer.js';
import type { PlannedRequest } from './request-runner.js';

/** Sends an authenticated API request (the runner bound to the client's token cache). */
export type SendAuthenticated = <T>(request: PlannedRequest<T>) => Promise<T>;

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
