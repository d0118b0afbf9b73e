import { describe, expect, it } from 'vitest';
import {
  type AttemptFailure,
  BASE_BACKOFF_MS,
  backoffDelayMs,
  decideRetry,
  parseRetryAfterHeader,
  type RetryContext,
} from './retry-policy.js';

const context = (overrides: Partial<RetryContext> = {}): RetryContext => ({
  retriesDone: 0,
  maxRetries: 3,
  maxRetryDelayMs: 10_000,
  safeToRepeat: false,
  random: () => 0.5,
  ...overrides,
});

const answer = (httpStatus: number, retryable?: boolean, retryAfterMs?: number): AttemptFailure => ({
  kind: 'answer',
  httpStatus,
  retryable,
  retryAfterMs,
});

describe('decideRetry', () => {
  it('retries what the error calls retryable, after the delay it suggests, whatever the method', () => {
    expect(decideRetry(answer(402, true, 3_000), context())).toEqual({
      retry: true,
      delayMs: 3_000,
      why: 'retryable',
    });
  });

  it('never retries an error answer whose body does not say retryable: true, whatever the status', () => {
    // The spec: "clients retry only when retryable is true". Absent is false, SEC-001's 429 included.
    for (const status of [402, 409, 429, 500, 503]) {
      expect(decideRetry(answer(status, false, 2_000), context({ safeToRepeat: true }))).toEqual({
        retry: false,
        why: 'not_retryable',
      });
    }
  });

  it('treats an answer that is not the service envelope (a proxy page) as no answer: retried only when safe', () => {
    for (const status of [429, 502, 503]) {
      expect(decideRetry(answer(status, undefined, 2_000), context({ safeToRepeat: true }))).toMatchObject({
        retry: true,
        delayMs: 2_000,
        why: 'no_answer',
      });
      expect(decideRetry(answer(status), context({ safeToRepeat: false })).retry).toBe(false);
    }
    expect(decideRetry(answer(404), context({ safeToRepeat: true })).retry).toBe(false);
  });

  it('never retries another 4xx, safe to repeat or not', () => {
    for (const status of [400, 401, 403, 404, 409, 422]) {
      expect(decideRetry(answer(status), context({ safeToRepeat: true }))).toEqual({
        retry: false,
        why: 'not_retryable',
      });
    }
  });

  it('retries a 5xx and no answer only when the request is safe to repeat', () => {
    for (const failure of [answer(500), answer(503), { kind: 'no_answer' } as const]) {
      expect(decideRetry(failure, context({ safeToRepeat: true })).retry).toBe(true);
      expect(decideRetry(failure, context({ safeToRepeat: false })).retry).toBe(false);
    }
  });

  it('obeys retryable: false (or absent) in the envelope, even on a 5xx of a safe request', () => {
    expect(decideRetry(answer(503, false), context({ safeToRepeat: true })).retry).toBe(false);
  });

  it('stops after maxRetries', () => {
    expect(decideRetry(answer(429, true), context({ retriesDone: 3, maxRetries: 3 }))).toEqual({
      retry: false,
      why: 'retries_exhausted',
    });
    expect(decideRetry(answer(429, true), context({ maxRetries: 0 })).retry).toBe(false);
  });

  it('does not wait a suggested delay longer than maxRetryDelayMs: the caller decides', () => {
    expect(decideRetry(answer(429, true, 10_001), context())).toEqual({
      retry: false,
      why: 'delay_too_long',
    });
    expect(decideRetry(answer(429, true, 10_000), context()).retry).toBe(true);
  });

  it('backs off when no delay is suggested', () => {
    expect(decideRetry(answer(409, true), context({ retriesDone: 2 }))).toMatchObject({
      retry: true,
      delayMs: backoffDelayMs(2, 10_000, () => 0.5),
    });
  });
});

describe('backoffDelayMs', () => {
  it('doubles with each retry, jittered between half and all of the step', () => {
    for (const retriesDone of [0, 1, 2, 3]) {
      const step = BASE_BACKOFF_MS * 2 ** retriesDone;
      expect(backoffDelayMs(retriesDone, 60_000, () => 0)).toBe(step / 2);
      expect(backoffDelayMs(retriesDone, 60_000, () => 0.999_999)).toBeCloseTo(step, -1);
    }
  });

  it('spreads clients that fail together', () => {
    const values = [0, 0.25, 0.5, 0.75].map((r) => backoffDelayMs(1, 60_000, () => r));
    expect(new Set(values).size).toBe(4);
  });

  it('never exceeds the cap, however many retries', () => {
    expect(backoffDelayMs(100, 5_000, () => 0.999_999)).toBeLessThanOrEqual(5_000);
    expect(backoffDelayMs(100, 5_000, () => 0)).toBe(2_500);
  });
});

describe('parseRetryAfterHeader', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfterHeader('7', now)).toBe(7_000);
    expect(parseRetryAfterHeader(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date against the clock, never negative', () => {
    expect(parseRetryAfterHeader('Sat, 21 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterHeader('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfterHeader(null, now)).toBeUndefined();
    expect(parseRetryAfterHeader('-5', now)).toBeUndefined();
    expect(parseRetryAfterHeader('1.5', now)).toBeUndefined();
    expect(parseRetryAfterHeader('soon', now)).toBeUndefined();
  });
});
