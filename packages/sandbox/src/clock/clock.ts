import { type OptionNames, refuseUnknownOptions } from '@dcbkit/core/web';
import { SandboxError } from '../shared/sandbox-error.js';
import type { ScheduledTask } from './scheduled-task.js';
import { TaskClock } from './task-clock.js';

/**
 * The sandbox's only source of time. Everything that happens later (payment expiry, a slow
 * operator's answer, webhook retries, and later renewals) is a task on this clock, so a test or a
 * partner can move time forward with `advance` and see each due task run in time order.
 */
export interface SandboxClock {
  /** The current sandbox time. */
  now(): Date;
  /** True when time only moves through `advance` (a test clock). */
  readonly frozen: boolean;
  /** Runs `run` once the clock reaches `at` (at once if `at` is already past). */
  schedule(at: Date, label: string, run: () => unknown): ScheduledTask;
  /** Moves time forward by `seconds`, running every task that falls due, in time order, each at its own time. */
  advance(seconds: number): Promise<void>;
  /** Runs every task already due, and waits for any run in progress. */
  runDue(): Promise<void>;
  /** Tasks not yet run, earliest first. */
  pending(): ReadonlyArray<{ id: number; label: string; dueAt: Date }>;
  /** Stops the timer and drops every pending task. */
  close(): void;
}

export interface CreateClockOptions {
  /** Start time. Default: the real current time. */
  start?: Date | string;
  /** When true, time stands still except through `advance`. Default false: real time. */
  frozen?: boolean;
  /** Called when a task throws; the clock carries on with the next task. Default: console.error. */
  onTaskError?: (error: unknown, label: string) => void;
}

/** Every option createClock takes: the compiler holds this list to CreateClockOptions; another is refused (unknown_option). */
const CLOCK_OPTIONS: OptionNames<CreateClockOptions> = {
  start: true,
  frozen: true,
  onTaskError: true,
};

/**
 * Creates the clock a sandbox runs on.
 *
 * @example
 * const clock = createClock({ start: '2030-01-01T00:00:00Z', frozen: true });
 * const sandbox = await startSandbox({ port: 0, clock });
 * await clock.advance(60); // runs the webhook retry due in a minute
 */
export function createClock(options: CreateClockOptions = {}): SandboxClock {
  if (typeof options === 'object' && options !== null)
    refuseUnknownOptions('createClock', options, CLOCK_OPTIONS);
  const frozen = options.frozen ?? false;
  const startMs = options.start === undefined ? Date.now() : new Date(options.start).getTime();
  if (Number.isNaN(startMs)) {
    throw new SandboxError('invalid_clock_start', 'createClock: start must be a valid date.');
  }
  const clock = new TaskClock(startMs, frozen, options.onTaskError);
  // Plain functions, not the class's methods: a caller may pass `clock.now` on by itself.
  return {
    frozen,
    now: () => new Date(clock.nowMs()),
    schedule: (at, label, run) => clock.schedule(at, label, run),
    advance(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0) {
        return Promise.reject(
          new SandboxError(
            'invalid_clock_advance',
            'SandboxClock.advance: seconds must be a finite number >= 0.',
          ),
        );
      }
      return clock.advance(seconds);
    },
    runDue: () => clock.runDue(),
    pending: () => clock.pending(),
    close: () => clock.close(),
  };
}
