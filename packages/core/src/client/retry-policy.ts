/**
 * When the client tries a failed request again, as a pure function of what failed. The rules are
 * the spec's: retry only when the error says it may succeed, after the delay it suggests; a rate
 * limit (429) after its delay; and, for requests that are safe to repeat (GET, and the create
 * that carries its Idempotency-Key), also after no answer at all or a server failure (5xx).
 * Never any other 4xx.
 */

/** What went wrong with one attempt, as far as retrying is concerned. */
export type AttemptFailure =
  | {
      kind: 'answer';
      httpStatus: number;
      /**
       * The body's `retryable`, else `true` where the spec calls the code retryable, else
       * undefined. An explicit `false` is obeyed even on a 5xx.
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

export type RetryReason = 'retryable' | 'rate_limited' | 'server_error' | 'no_answer';

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
  if (failure.kind === 'no_answer') return safeToRepeat ? 'no_answer' : undefined;
  if (failure.retryable === true) return 'retryable';
  if (failure.retryable === false) return undefined;
  if (failure.httpStatus === 429) return 'rate_limited';
  if (failure.httpStatus >= 500 && safeToRepeat) return 'server_error';
  return undefined;
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
