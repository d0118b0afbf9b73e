import { DcbError } from '../errors/dcb-error.js';

/** A delivery in flight, in a list kept in deadline order. */
interface Pending {
  readonly at: number;
  readonly fail: (error: DcbError) => void;
  previous: Pending | undefined;
  next: Pending | undefined;
  linked: boolean;
}

/**
 * How a runtime's timers live. `process`: one event loop for the whole process (Node, Bun, Deno,
 * which all give `process.versions.node`), so a timer set while one request is handled fires
 * whatever becomes of that request. `request`: an edge runtime (Cloudflare Workers, Vercel Edge)
 * ties a timer to the request that set it and drops it when that request ends, so one timer
 * shared by the deliveries of several requests would die with the first of them.
 */
export type TimerScope = 'process' | 'request';

export function runtimeTimerScope(): TimerScope {
  const versions = (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions;
  return typeof versions?.node === 'string' ? 'process' : 'request';
}

/**
 * Bounds how long a delivery's work may take. Where timers live as long as the process, with one
 * interval timer for all deliveries in flight instead of a setTimeout/clearTimeout pair per
 * delivery: that pair was about a microsecond
 * of every webhook, duplicates included. Every deadline is `ms` after its start, so deliveries
 * join a linked list already in deadline order: joining and leaving are a few pointer writes (a
 * Set of entries cost a hash per delivery), and a sweep stops at the first deadline still ahead.
 * A deadline fires within a fifth of `ms` (at most 1 s) after it passes. Measured on the monotonic
 * clock (`performance.now()`), not the wall clock: an NTP step of the system time (or a test that
 * moves `Date`) never times out a delivery in flight. The interval runs only
 * while work is in flight, and keeps the process alive meanwhile: a script or worker that calls the
 * handler with a hanging store gets its 503 instead of exiting with the promise unsettled.
 */
export function createDeadlines(ms: number, scope: TimerScope = runtimeTimerScope()) {
  if (scope === 'request') return timerPerDelivery(ms);
  const tickMs = Math.min(1_000, Math.max(10, Math.floor(ms / 5)));
  let oldest: Pending | undefined;
  let newest: Pending | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;

  function unlink(entry: Pending): void {
    if (!entry.linked) return;
    entry.linked = false;
    if (entry.previous) entry.previous.next = entry.next;
    else oldest = entry.next;
    if (entry.next) entry.next.previous = entry.previous;
    else newest = entry.previous;
  }

  function sweep(): void {
    const now = performance.now();
    while (oldest !== undefined && oldest.at <= now) {
      const due = oldest;
      unlink(due);
      due.fail(timeoutError(ms));
    }
    if (oldest === undefined && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  /** Runs `work`, or rejects with a DcbError `timeout` once `ms` have passed (the work itself goes on). */
  return function withDeadline<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = {
        at: performance.now() + ms,
        fail: reject,
        previous: newest,
        next: undefined,
        linked: true,
      };
      if (newest) newest.next = entry;
      else oldest = entry;
      newest = entry;
      if (timer === undefined) timer = setInterval(sweep, tickMs);
      work().then(
        (value) => {
          unlink(entry);
          resolve(value);
        },
        (error: unknown) => {
          unlink(entry);
          reject(error);
        },
      );
    });
  };
}

/** Where timers belong to a request (an edge runtime): a timer per delivery, set and cleared in its own request. */
function timerPerDelivery(ms: number) {
  return function withDeadline<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(timeoutError(ms)), ms);
      work().then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  };
}

function timeoutError(ms: number): DcbError {
  return new DcbError('timeout', `The store, the ledger or a listener took longer than ${ms} ms.`, {
    details: { timeoutMs: ms },
  });
}
