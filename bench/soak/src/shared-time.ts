import type { Child } from './processes.js';

/**
 * The time the sandbox and the shops share: real time plus `offsetMs`, moved by `move()` (see
 * time-shift-preload.ts). Each process gets the offset at start (`env()`) and every change over
 * its IPC channel; a process started meanwhile is sent the current one once it listens.
 */
export class SharedTime {
  offsetMs = 0;
  /** When each move was made (real epoch ms), to explain what a jump of the clock did in flight. */
  readonly moves: number[] = [];
  private readonly processes = new Set<() => Child | undefined>();

  env(): Record<string, string> {
    return { SOAK_TIME_OFFSET_MS: String(this.offsetMs) };
  }

  /** Follows the process `current()` returns (an instance's changes across restarts). */
  follow(current: () => Child | undefined): void {
    this.processes.add(current);
  }

  /** Tells one process the current offset (after it started). */
  tell(child: Child | undefined): void {
    if (child?.process.connected) child.process.send({ type: 'time-offset', ms: this.offsetMs });
  }

  move(seconds: number): void {
    this.moves.push(Date.now());
    this.offsetMs += seconds * 1000;
    for (const current of this.processes) this.tell(current());
  }
}
