import type { ServerError } from './traffic.js';

/** A fault the soak caused, with the time it started and ended (ms since the soak started). */
export interface FaultWindow {
  kind: 'kill' | 'pg-terminate' | 'outage';
  /** The instance killed; undefined for faults of the whole shop. */
  instance?: number;
  from: number;
  to: number;
}

/** How long after a fault its effects may still be seen: a restart's first requests, a pool's reconnection. */
const AFTERMATH_MS = 3_000;

export interface Explained {
  total: number;
  explained: number;
  unexplained: ServerError[];
  /** Counts by reason. */
  reasons: Record<string, number>;
}

/**
 * Every 5xx is matched to a fault the soak caused, by time, instance and the answer's words:
 * - the webhook outage: the proxy's own 503 while it is on;
 * - a kill: the proxy's 502 for a request the killed instance never answered (it was mid-request,
 *   or every instance refused) from the kill until it listens again;
 * - a PostgreSQL backend terminated: a 500 from any instance just after (the connection a query
 *   ran on was cut);
 * - `line_cancel_failed` (503): linePolicy 'cancel-newer' could not cancel yet, by design;
 * - `processing_timeout` (503) on a webhook in flight while the shared time moved: the kit's
 *   webhook deadline reads the wall clock (Date.now), which the soak moves by hours at a time (an
 *   NTP step would do the same); the service retries it.
 * Anything else is unexplained and fails the run.
 */
export function explainServerErrors(
  errors: readonly ServerError[],
  faults: readonly FaultWindow[],
  timeMoves: readonly number[] = [],
): Explained {
  const reasons: Record<string, number> = {};
  const unexplained: ServerError[] = [];
  const within = (error: ServerError, fault: FaultWindow) =>
    error.at >= fault.from - 1_000 && error.at <= fault.to + AFTERMATH_MS;
  for (const error of errors) {
    const body = error.body ?? '';
    let reason: string | undefined;
    if (body === 'soak: webhook outage') reason = 'webhook outage (proxy 503)';
    else if (body.includes('line_cancel_failed')) reason = 'line_cancel_failed (503 by design)';
    else if (body.includes('processing_timeout') && movedInFlight(error, timeMoves)) {
      reason = 'processing_timeout: the clock moved while in flight';
    } else if (body.startsWith('soak proxy:')) {
      const kill = faults.find(
        (fault) =>
          fault.kind === 'kill' &&
          within(error, fault) &&
          (error.instance === null || error.instance === fault.instance),
      );
      if (kill) reason = 'instance killed (proxy 502)';
    } else if (error.status >= 500) {
      const terminated = faults.find((fault) => fault.kind === 'pg-terminate' && within(error, fault));
      if (terminated) reason = 'PostgreSQL backend terminated';
    }
    if (reason === undefined) unexplained.push(error);
    else reasons[reason] = (reasons[reason] ?? 0) + 1;
  }
  return { total: errors.length, explained: errors.length - unexplained.length, unexplained, reasons };
}

/** A move of the shared time (ms since the soak started) between the request's start and its end; 2 s for the IPC message to land. */
function movedInFlight(error: ServerError, timeMoves: readonly number[]): boolean {
  const started = error.at - error.ms;
  return timeMoves.some((move) => move >= started - 2_000 && move <= error.at);
}
