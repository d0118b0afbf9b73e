import { type DcbError, isDcbError } from '../errors/dcb-error.js';
import type { RequestOptions, ResolvedClientOptions } from './client-options.js';
import { type HttpAnswer, type HttpRequest, sendOnce } from './http-transport.js';
import type { PlannedRequest } from './planned-request.js';
import type { AttemptFailure } from './retry-policy.js';

/** What one sending of a planned request gave: the value, no answer at all, or a refusal read. */
export type AttemptOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; noAnswer: true; error: DcbError }
  | {
      ok: false;
      noAnswer: false;
      error: Error;
      httpStatus: number;
      retryable: boolean | undefined;
      retryAfterMs: number | undefined;
    };

/** No answer came: the request may or may not have reached the service. */
function isNoAnswer(error: unknown): error is DcbError {
  return isDcbError(error, 'timeout') || isDcbError(error, 'service_unreachable');
}

/** Sends the request once and reads its answer; throws only what is neither an answer nor its absence. */
export async function sendAttempt<T>(
  options: ResolvedClientOptions,
  request: PlannedRequest<T>,
  headers: Record<string, string>,
  path: string,
  call: RequestOptions,
): Promise<AttemptOutcome<T>> {
  const httpRequest: HttpRequest = { method: request.method, target: request.target, headers };
  if (request.body !== undefined) httpRequest.body = request.body;
  let answer: HttpAnswer;
  try {
    answer = await sendOnce(
      { ...options, timeoutMs: call.timeoutMs ?? options.timeoutMs, signal: call.signal },
      httpRequest,
    );
  } catch (error) {
    if (isNoAnswer(error)) return { ok: false, noAnswer: true, error };
    throw error;
  }
  options.logger.debug?.({ method: request.method, path, status: answer.status }, 'dcbkit: answer');
  const reading = request.read(answer, { method: request.method, path, nowMs: options.nowMs() });
  if (reading.ok) return reading;
  return {
    ok: false,
    noAnswer: false,
    error: reading.error,
    httpStatus: answer.status,
    retryable: reading.retryable,
    retryAfterMs: reading.retryAfterMs,
  };
}

/** A failed attempt as the retry policy weighs it. */
export function attemptFailureOf(outcome: Exclude<AttemptOutcome<unknown>, { ok: true }>): AttemptFailure {
  return outcome.noAnswer
    ? { kind: 'no_answer' }
    : {
        kind: 'answer',
        httpStatus: outcome.httpStatus,
        retryable: outcome.retryable,
        retryAfterMs: outcome.retryAfterMs,
      };
}
