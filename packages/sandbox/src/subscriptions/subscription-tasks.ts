import type { SandboxClock } from '../clock/clock.js';
import type { ScheduledTask } from '../clock/scheduled-task.js';

/** The clock tasks pending for each subscription, so that an end or a new period can drop them. */
export class SubscriptionTasks {
  private readonly pending = new Map<string, ScheduledTask[]>();

  constructor(private readonly clock: SandboxClock) {}

  /** Runs `run` at `at`, labelled `${what} ${subscriptionUid}` in the clock's pending list. */
  schedule(subscriptionUid: string, at: Date, what: string, run: () => void): void {
    const task = this.clock.schedule(at, `${what} ${subscriptionUid}`, () => {
      this.pending.set(
        subscriptionUid,
        (this.pending.get(subscriptionUid) ?? []).filter((other) => other !== task),
      );
      run();
    });
    this.pending.set(subscriptionUid, [...(this.pending.get(subscriptionUid) ?? []), task]);
  }

  /** Drops every task still pending for the subscription. */
  drop(subscriptionUid: string): void {
    for (const task of this.pending.get(subscriptionUid) ?? []) task.cancel();
    this.pending.delete(subscriptionUid);
  }
}
