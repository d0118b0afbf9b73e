import { isDcbApiError } from '../client/errors.js';
import { abortedError, type RateLimitGate } from './rate-limit-gate.js';

export interface ReadBudget {
  gate: RateLimitGate;
  signal: AbortSignal | undefined;
  maxRateLimitWaits: number;
  maxRetryAfterMs: number;
  /** Every request sent, SEC-001 answers included. */
  reads: number;
}

/** Thrown when the service still answers SEC-001 after the run's budget of pauses: the run stops. */
export class RateLimitBudgetSpent extends Error {
  constructor(readonly lastRefusal: unknown) {
    super('The service kept answering SEC-001 (rate limit) past the run’s budget of pauses.');
  }
}

/** A SEC-001 without a delay: wait a second, the spec's smallest unit. */
const DEFAULT_RETRY_AFTER_MS = 1000;

/**
 * One API read, sent when no rate-limit pause is running; on SEC-001 it waits the Retry-After
 * (shared with every other read of the run) and tries again, within the run's budget. Any other
 * error is the caller's.
 */
export async function readPolitely<T>(budget: ReadBudget, read: () => Promise<T>): Promise<T> {
  for (;;) {
    await budget.gate.pass();
    if (budget.signal?.aborted) throw abortedError();
    budget.reads++;
    try {
      return await read();
    } catch (error) {
      if (!isDcbApiError(error, 'SEC-001')) throw error;
      const ms =
        error.retryAfterSeconds === undefined ? DEFAULT_RETRY_AFTER_MS : error.retryAfterSeconds * 1000;
      if (ms > budget.maxRetryAfterMs) throw new RateLimitBudgetSpent(error);
      if (!(await budget.gate.hold(ms, budget.maxRateLimitWaits))) throw new RateLimitBudgetSpent(error);
    }
  }
}
