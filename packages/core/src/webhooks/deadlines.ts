import { DcbError } from '../errors/dcb-error.js';

interface Pending {
  at: number;
  fail: () => void;
}

/**
 * Bounds how long a delivery's work may take, with one interval timer for all deliveries in
 * flight instead of a setTimeout/clearTimeout pair per delivery: that pair was about a microsecond
 * of every webhook, duplicates included. A deadline fires within a fifth of `ms` (at most 1 s)
 * after it passes. The interval runs only while work is in flight and never holds the process open.
 */
export function createDeadlines(ms: number) {
  const pending = new Set<Pending>();
  const tickMs = Math.min(1_000, Math.max(10, Math.floor(ms / 5)));
  let timer: ReturnType<typeof setInterval> | undefined;

  function sweep(): void {
    const now = Date.now();
    for (const entry of pending) {
      if (entry.at <= now) {
        pending.delete(entry);
        entry.fail();
      }
    }
    if (pending.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  /** Runs `work`, or rejects with a DcbError `timeout` once `ms` have passed (the work itself goes on). */
  return function withDeadline<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = {
        at: Date.now() + ms,
        fail: () =>
          reject(
            new DcbError('timeout', `The store, the ledger or a listener took longer than ${ms} ms.`, {
              details: { timeoutMs: ms },
            }),
          ),
      };
      pending.add(entry);
      if (timer === undefined) {
        timer = setInterval(sweep, tickMs);
        timer.unref();
      }
      work().then(
        (value) => {
          pending.delete(entry);
          resolve(value);
        },
        (error: unknown) => {
          pending.delete(entry);
          reject(error);
        },
      );
    });
  };
}
