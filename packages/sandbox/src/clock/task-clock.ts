import type { ScheduledTask } from './scheduled-task.js';
import { type QueuedTask, TaskQueue } from './task-queue.js';

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
 * The clock's workings: sandbox time (wall time plus an offset, or standing still when frozen),
 * the due tasks run one run at a time in time order, and the one timer for the earliest task.
 */
export class TaskClock {
  /** Real mode: sandbox time = wall time + offset. Frozen mode: sandbox time = frozenMs. */
  private offsetMs: number;
  private frozenMs: number;
  private nextId = 1;
  private readonly tasks = new TaskQueue<TaskEntry>();
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    startMs: number,
    private readonly frozen: boolean,
    private readonly onTaskError?: (error: unknown, label: string) => void,
  ) {
    this.offsetMs = startMs - Date.now();
    this.frozenMs = startMs;
  }

  nowMs(): number {
    return this.frozen ? this.frozenMs : Date.now() + this.offsetMs;
  }

  schedule(at: Date, label: string, run: () => unknown): ScheduledTask {
    const { closed, tasks } = this;
    const entry: TaskEntry = { id: this.nextId++, label, dueAt: at.getTime(), run, cancelled: closed };
    if (!closed) tasks.push(entry);
    // Re-arming only matters when this task is now the earliest: keeps schedule O(log n).
    if (!closed && tasks.peek() === entry) this.arm();
    return {
      id: entry.id,
      label,
      dueAt: new Date(entry.dueAt),
      cancel() {
        tasks.cancel(entry);
      },
    };
  }

  advance(seconds: number): Promise<void> {
    return this.serialize(async () => {
      const target = this.nowMs() + seconds * 1000;
      await this.drainUntil(() => target);
      this.moveTo(target);
    });
  }

  runDue(): Promise<void> {
    return this.serialize(() => this.drainUntil(() => this.nowMs()));
  }

  pending(): Array<{ id: number; label: string; dueAt: Date }> {
    return this.tasks
      .sorted()
      .map((task) => ({ id: task.id, label: task.label, dueAt: new Date(task.dueAt) }));
  }

  close(): void {
    this.closed = true;
    this.tasks.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private moveTo(ms: number): void {
    if (ms <= this.nowMs()) return;
    if (this.frozen) this.frozenMs = ms;
    else this.offsetMs += ms - this.nowMs();
  }

  private async runTask(task: TaskEntry): Promise<void> {
    try {
      await task.run();
    } catch (error) {
      if (this.onTaskError) this.onTaskError(error, task.label);
      else console.error(`dcbkit-sandbox: task "${task.label}" failed:`, error);
    }
  }

  private async drainUntil(limit: () => number): Promise<void> {
    for (let count = 0; !this.closed; count++) {
      if (count === MAX_TASKS_PER_RUN) {
        throw new Error(`SandboxClock: more than ${MAX_TASKS_PER_RUN} tasks fell due in one run.`);
      }
      const task = this.tasks.takeDueBy(limit());
      if (!task) return;
      this.moveTo(task.dueAt);
      await this.runTask(task);
    }
  }

  /** One run at a time: an advance waits for the run before it, then the timer is armed again. */
  private serialize(work: () => Promise<void>): Promise<void> {
    const result = this.chain.then(work);
    this.chain = result.catch(() => undefined).then(() => this.arm());
    return result;
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const earliest = this.closed ? undefined : this.tasks.peek();
    if (!earliest) return;
    const wait = earliest.dueAt - this.nowMs();
    // A frozen clock only runs what is already due; the rest waits for advance().
    if (this.frozen && wait > 0) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.runDue();
      },
      Math.min(Math.max(wait, 0), MAX_TIMER_MS),
    );
    this.timer.unref();
  }
}
