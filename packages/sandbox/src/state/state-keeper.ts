import type { SandboxClock } from '../clock/clock.js';
import { writeStateFile } from './state-file.js';
import type { SandboxState } from './state-snapshot.js';

/**
 * Saves the state after changes, coalesced: many changes in one tick give one write, and a change
 * during a write gives one more write after it. Never two writes at once.
 */
export class StateKeeper {
  private dirty = false;
  private writing: Promise<void> | undefined;
  private scheduled = false;

  constructor(
    private readonly path: string,
    private readonly snapshot: () => SandboxState,
    private readonly log: (line: string) => void,
  ) {}

  /** Something changed: save soon. */
  changed(): void {
    this.dirty = true;
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  /** Saves now if anything changed, and resolves once the file is written. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (!this.dirty) return;
    this.dirty = false;
    this.writing = writeStateFile(this.path, this.snapshot())
      .catch((error: unknown) => this.log(`could not save state to ${this.path}: ${String(error)}`))
      .finally(() => {
        this.writing = undefined;
      });
    await this.writing;
    if (this.dirty) await this.flush();
  }
}

/**
 * The same clock, telling `onChange` after every task it runs, so that expiries, renewals and
 * webhook attempts that happen between requests are saved too.
 */
export function observedClock(clock: SandboxClock, onChange: () => void): SandboxClock {
  return {
    get frozen() {
      return clock.frozen;
    },
    now: () => clock.now(),
    schedule: (at, label, run) =>
      clock.schedule(at, label, async () => {
        try {
          return await run();
        } finally {
          onChange();
        }
      }),
    advance: (seconds) => clock.advance(seconds).finally(onChange),
    runDue: () => clock.runDue(),
    pending: () => clock.pending(),
    close: () => clock.close(),
  };
}
