import { z } from 'zod';
import type { SandboxClock } from '../clock/clock.js';
import { successReply } from '../http/reply.js';
import type { RouteHandler } from '../http/router.js';
import type { ControlDeps } from './control-deps.js';
import { readControlBody } from './read-control-body.js';

/** Five years: enough for any lifecycle, and a bound on the work one request can start. */
export const MAX_ADVANCE_SECONDS = 5 * 365 * 86_400;

const advanceBodySchema = z.strictObject({ seconds: z.number().min(0).max(MAX_ADVANCE_SECONDS) });

/** The clock as GET /sandbox/clock shows it. */
export function clockView(clock: SandboxClock) {
  return {
    now: clock.now().toISOString(),
    frozen: clock.frozen,
    pendingTasks: clock.pending().map((task) => ({ label: task.label, dueAt: task.dueAt.toISOString() })),
  };
}

/** GET /sandbox/clock: sandbox time and the tasks waiting on it. */
export function readClock({ clock }: ControlDeps): RouteHandler {
  return () => successReply(200, clockView(clock));
}

/**
 * POST /sandbox/clock/advance `{ seconds }`: runs every task that falls due, in time order, and
 * answers once they ran, first webhook attempts included.
 */
export function advanceClock({ clock }: ControlDeps): RouteHandler {
  return async (request) => {
    const { seconds } = readControlBody(
      request,
      advanceBodySchema,
      `{ "seconds": n } with 0 <= n <= ${MAX_ADVANCE_SECONDS}`,
    );
    await clock.advance(seconds);
    return successReply(200, clockView(clock));
  };
}
