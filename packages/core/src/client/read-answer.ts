import type { z } from 'zod';
import { DcbError } from '../errors/dcb-error.js';
import { type ApiErrorBody, errorEnvelopeSchema } from '../schemas/envelope.js';
import { DcbApiError } from './errors.js';
import type { HttpAnswer } from './http-transport.js';
import { parseRetryAfterHeader } from './retry-policy.js';

/** Where an answer came from, for errors and the Retry-After date. */
export interface AnswerContext {
  method: string;
  path: string;
  nowMs: number;
}

/** What one attempt produced: the value, or the error with what the retry policy needs to know. */
export type AnswerReading<T> =
  | { ok: true; value: T }
  | { ok: false; error: Error; retryable: boolean | undefined; retryAfterMs: number | undefined };

export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * Reads an API answer: a 2xx must be `schema` (usually a success envelope), anything else an
 * error envelope, which becomes DcbApiError. Every other answer becomes a DcbError (see unexpectedAnswer).
 */
export function readApiAnswer<T>(
  answer: HttpAnswer,
  schema: z.ZodType<T>,
  context: AnswerContext,
): AnswerReading<T> {
  const errorBody = readErrorEnvelope(answer);
  if (errorBody !== undefined) return serviceRefusal(answer, errorBody, context);
  if (isSuccessStatus(answer.status) && answer.body.json) {
    const parsed = schema.safeParse(answer.body.value);
    if (parsed.success) return { ok: true, value: parsed.data };
    return unexpectedAnswer(answer, context, describeIssue(parsed.error));
  }
  return unexpectedAnswer(answer, context);
}

/** An error envelope's refusal as DcbApiError, with what the retry policy needs to know. */
export function serviceRefusal(
  answer: HttpAnswer,
  errorBody: ApiErrorBody,
  context: AnswerContext,
): AnswerReading<never> {
  const retryAfterMs = suggestedDelayMs(answer, errorBody, context.nowMs);
  return {
    ok: false,
    error: new DcbApiError({
      code: errorBody.code,
      httpStatus: answer.status,
      message: errorBody.message,
      retryable: errorBody.retryable,
      retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
      body: answer.body.json ? answer.body.value : undefined,
      method: context.method,
      path: context.path,
    }),
    retryable: statedRetryable(errorBody),
    retryAfterMs,
  };
}

/** The error envelope's `error`, when the answer is one (whatever its status). */
export function readErrorEnvelope(answer: HttpAnswer): ApiErrorBody | undefined {
  if (!answer.body.json) return undefined;
  const { value } = answer.body;
  // Most answers are successes: skip the failing parse (and its issue list) for them.
  if (typeof value !== 'object' || value === null || (value as { success?: unknown }).success !== false) {
    return undefined;
  }
  const parsed = errorEnvelopeSchema.safeParse(value);
  return parsed.success ? parsed.data.error : undefined;
}

/**
 * Whether the service's error answer may be retried: only when its body says `retryable: true`
 * ("clients retry only when retryable is true"). An absent `retryable` is false, even for a code
 * the spec's table calls retryable (the body is present whenever a retry could succeed) and even
 * on a 5xx. Answers that are not the service's error envelope are another case (retry-policy.ts).
 */
export function statedRetryable(errorBody: ApiErrorBody): boolean {
  return errorBody.retryable === true;
}

/** The body's `retryAfterSeconds`, else the `Retry-After` header, in ms. */
export function suggestedDelayMs(
  answer: HttpAnswer,
  errorBody: ApiErrorBody | undefined,
  nowMs: number,
): number | undefined {
  if (errorBody?.retryAfterSeconds !== undefined) return errorBody.retryAfterSeconds * 1000;
  return parseRetryAfterHeader(answer.headers.get('retry-after'), nowMs);
}

/**
 * An answer that is neither the expected resource nor an error envelope. A 5xx is an outage
 * (a proxy's error page, say): `unexpected_response`, retried where safe. Anything else (an HTML
 * page, a 404 without the service's envelope, a redirect) means the base URL does not point at
 * the service: `wrong_base_url`, which no retry will fix.
 */
export function unexpectedAnswer(
  answer: HttpAnswer,
  context: AnswerContext,
  detail?: string,
): AnswerReading<never> {
  const retryAfterMs = suggestedDelayMs(answer, undefined, context.nowMs);
  const what = answer.body.json ? 'an unexpected JSON body' : 'a body that is not JSON';
  const outage = answer.status >= 500;
  const shapeOnly = isSuccessStatus(answer.status) && answer.body.json;
  const code = outage || shapeOnly ? 'unexpected_response' : 'wrong_base_url';
  const said = `${context.method} ${context.path}: HTTP ${answer.status} with ${what}${detail ? ` (${detail})` : ''}.`;
  const hint =
    code === 'wrong_base_url'
      ? ' This is not an answer of the service: check the base URL (the API root, without /v1).'
      : '';
  return {
    ok: false,
    error: new DcbError(code, `${said}${hint}`, {
      httpStatus: answer.status,
      retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
      details: {
        method: context.method,
        path: context.path,
        status: answer.status,
        body: answer.body.json ? answer.body.value : answer.body.text.slice(0, 500),
      },
    }),
    retryable: undefined,
    retryAfterMs,
  };
}

function describeIssue(error: z.ZodError): string {
  const first = error.issues[0];
  if (first === undefined) return 'invalid';
  return first.path.length > 0 ? `${first.path.join('.')}: ${first.message}` : first.message;
}
