import { SandboxError } from '../shared/sandbox-error.js';
import { type QueuedTask, TaskQueue } from './task-queue.js';

/** A task the clock runs once its time has come. */
export interface ScheduledTask {
  readonly id: number;
  readonly label: string;
  readonly dueAt: Date;
  /** Drops the task if it has not run yet. */
  cancel(): void;
}

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

interface TaskEntry extends QueuedTask {
  label: string;
  run: () => unknown;
}

// A task that keeps scheduling itself for "now" would otherwise spin forever. Far above any real
// backlog: a load test may leave a million expiries and webhook attempts due at once.
const MAX_TASKS_PER_RUN = 5_000_000;
// setTimeout cannot wait longer than this (about 24.8 days).
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Creates the clock a sandbox runs on.
 *
 * @example
 * const clock = createClock({ start: '2030-01-01T00:00:00Z', frozen: true });
 * const sandbox = await startSandbox({ port: 0, clock });
 * await clock.advance(60); // runs the webhook retry due in a minute
 */
export function createClock(options: CreateClockOptions = {}): SandboxClock {
  const frozen = options.frozen ?? false;
  const startMs = options.start === undefined ? Date.now() : new Date(options.start).getTime();
  if (Number.isNaN(startMs)) {
    throw new SandboxError('invalid_clock_start', 'createClock: start must be a valid date.');
  }
  // Real mode: sandbox time = wall time + offset. Frozen mode: sandbox time = frozenMs.
  let offsetMs = startMs - Date.now();
  let frozenMs = startMs;
  let nextId = 1;
  const tasks = new TaskQueue<TaskEntry>();
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;

  const nowMs = (): number => (frozen ? frozenMs : Date.now() + offsetMs);

  const moveTo = (ms: number): void => {
    if (ms <= nowMs()) return;
    if (frozen) frozenMs = ms;
    else offsetMs += ms - nowMs();
  };

  const runTask = async (task: TaskEntry): Promise<void> => {
    try {
      await task.run();
    } catch (error) {
      if (options.onTaskError) options.onTaskError(error, task.label);
      else console.error(`dcbkit-sandbox: task "${task.label}" failed:`, error);
    }
  };

  const drainUntil = async (limit: () => number): Promise<void> => {
    for (let count = 0; !closed; count++) {
      if (count === MAX_TASKS_PER_RUN) {
        throw new Error(`SandboxClock: more than ${MAX_TASKS_PER_RUN} tasks fell due in one run.`);
      }
      const task = tasks.takeDueBy(limit());
      if (!task) return;
      moveTo(task.dueAt);
      await runTask(task);
    }
  };

  const serialize = (work: () => Promise<void>): Promise<void> => {
    const result = chain.then(work);
    chain = result.catch(() => undefined).then(arm);
    return result;
  };

  function arm(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const earliest = closed ? undefined : tasks.peek();
    if (!earliest) return;
    const wait = earliest.dueAt - nowMs();
    // A frozen clock only runs what is already due; the rest waits for advance().
    if (frozen && wait > 0) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        void serialize(() => drainUntil(nowMs));
      },
      Math.min(Math.max(wait, 0), MAX_TIMER_MS),
    );
    timer.unref();
  }

  return {
    frozen,
    now: () => new Date(nowMs()),
    schedule(at, label, run) {
      const entry: TaskEntry = { id: nextId++, label, dueAt: at.getTime(), run, cancelled: closed };
      if (!closed) tasks.push(entry);
      // Re-arming only matters when this task is now the earliest: keeps schedule O(log n).
      if (!closed && tasks.peek() === entry) arm();
      return {
        id: entry.id,
        label,
        dueAt: new Date(entry.dueAt),
        cancel() {
          tasks.cancel(entry);
        },
      };
    },
    advance(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0) {
        return Promise.reject(
          new SandboxError(
            'invalid_clock_advance',
            'SandboxClock.advance: seconds must be a finite number >= 0.',
          ),
        );
      }
      return serialize(async () => {
        const target = nowMs() + seconds * 1000;
        await drainUntil(() => target);
        moveTo(target);
      });
    },
    runDue: () => serialize(() => drainUntil(nowMs)),
    pending: () =>
      tasks.sorted().map((task) => ({ id: task.id, label: task.label, dueAt: new Date(task.dueAt) })),
    close() {
      closed = true;
      tasks.clear();
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
