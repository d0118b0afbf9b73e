/**
 * When the client tries a failed request again, as a pure function of what failed.
 * - An error answer of the service (its error envelope): only when the body says
 *   `retryable: true`, after the delay it suggests, whatever the method ("clients retry only when
 *   retryable is true"). An absent `retryable` is false, whatever the status or the code.
 * - No answer from the service (no connection, a timeout, or an answer that is not its envelope,
 *   such as a proxy's 502 page): nothing says whether the request was done, so only a request that
 *   is safe to repeat (GET, and the create that carries its Idempotency-Key) is sent again.
 */

/** What went wrong with one attempt, as far as retrying is concerned. */
export type AttemptFailure =
  | {
      kind: 'answer';
      httpStatus: number;
      /**
       * The service's error envelope's `retryable` (absent = false). Undefined when the answer is
       * not the service's envelope (a proxy's error page, say): that is no answer of the service.
       */
      retryable: boolean | undefined;
      /** The delay the service suggested (body `retryAfterSeconds`, else `Retry-After`), in ms. */
      retryAfterMs: number | undefined;
    }
  | { kind: 'no_answer' };

export interface RetryContext {
  /** Retries already made for this call. */
  retriesDone: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  /** GET, or a POST that carries an Idempotency-Key. */
  safeToRepeat: boolean;
  /** In [0, 1); Math.random by default. */
  random: () => number;
}

export type RetryDecision =
  | { retry: true; delayMs: number; why: RetryReason }
  | { retry: false; why: 'not_retryable' | 'retries_exhausted' | 'delay_too_long' };

export type RetryReason = 'retryable' | 'no_answer';

/** Backoff starts here and doubles with each retry. */
export const BASE_BACKOFF_MS = 250;

/**
 * Exponential backoff with jitter: a random delay between half and all of
 * `BASE_BACKOFF_MS * 2^retriesDone`, capped at `maxDelayMs`. The floor keeps a retry from
 * coming back at once; the spread keeps many clients from coming back together.
 */
export function backoffDelayMs(retriesDone: number, maxDelayMs: number, random: () => number): number {
  const ceiling = Math.min(maxDelayMs, BASE_BACKOFF_MS * 2 ** Math.min(retriesDone, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

export function decideRetry(failure: AttemptFailure, context: RetryContext): RetryDecision {
  const why = retryReason(failure, context.safeToRepeat);
  if (why === undefined) return { retry: false, why: 'not_retryable' };
  if (context.retriesDone >= context.maxRetries) return { retry: false, why: 'retries_exhausted' };
  const suggested = failure.kind === 'answer' ? failure.retryAfterMs : undefined;
  if (suggested !== undefined) {
    // The service's delay is a floor: coming back sooner only earns the same error.
    if (suggested > context.maxRetryDelayMs) return { retry: false, why: 'delay_too_long' };
    return { retry: true, delayMs: suggested, why };
  }
  return {
    retry: true,
    delayMs: backoffDelayMs(context.retriesDone, context.maxRetryDelayMs, context.random),
    why,
  };
}

function retryReason(failure: AttemptFailure, safeToRepeat: boolean): RetryReason | undefined {
  if (failure.kind === 'answer' && failure.retryable !== undefined) {
    return failure.retryable ? 'retryable' : undefined;
  }
  // No answer of the service: repeat only what cannot be done twice. A 4xx that is not the
  // service's envelope (a proxy's 404, a redirect) is a wrong base URL: no retry fixes it.
  if (failure.kind === 'answer' && failure.httpStatus < 500 && failure.httpStatus !== 429) return undefined;
  return safeToRepeat ? 'no_answer' : undefined;
}

/**
 * The `Retry-After` header in ms: delay-seconds, or an HTTP date measured against `nowMs`.
 * Undefined when absent or unreadable.
 */
export function parseRetryAfterHeader(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date) || !/[a-z]/i.test(text)) return undefined;
  return Math.max(0, date - nowMs);
}
