/** A task the clock runs once its time has come. */
export interface ScheduledTask {
  readonly id: number;
  readonly label: string;
  readonly dueAt: Date;
  /** Drops the task if it has not run yet. */
  cancel(): void;
}
