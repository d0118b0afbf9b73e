import { DcbError } from '../errors/dcb-error.js';

/** Waits `ms`, or rejects with DcbError `aborted` as soon as `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export function abortedError(): DcbError {
  return new DcbError('aborted', 'The reconciliation was aborted (AbortSignal).');
}

/**
 * One pause shared by every worker of a run: a SEC-001 answer means the application is over its
 * limit, so all reads wait for Retry-After together rather than each finding out with a 429 of
 * its own. While a pause runs, another SEC-001 joins it instead of starting a second one.
 */
export class RateLimitGate {
  private pause: Promise<void> | undefined;
  /** Pauses taken so far in this run. */
  waits = 0;

  constructor(
    private readonly sleep: Sleep,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Resolves once no pause is running. */
  async pass(): Promise<void> {
    while (this.pause !== undefined) await this.pause;
  }

  /**
   * Joins the pause running, else starts one of `ms` if the run's budget allows another: resolves
   * true once it ends, false at once when the budget is spent.
   */
  async hold(ms: number, maxWaits: number): Promise<boolean> {
    if (this.pause === undefined) {
      if (this.waits >= maxWaits) return false;
      this.waits++;
      this.pause = this.sleep(ms, this.signal).finally(() => {
        this.pause = undefined;
      });
    }
    await this.pause;
    return true;
  }
}
