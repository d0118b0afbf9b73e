/**
 * Things to free once their retention time has passed, in the order they became freeable. The
 * sandbox clock only moves forward and every entry waits the same time, so the queue is also in
 * due order: freeing looks at its head only, O(1) per freed thing, never a scan of all held.
 */
export class RetentionQueue<K> {
  private keys: K[] = [];
  private dueAts: number[] = [];
  private head = 0;

  /** `retentionMs` null keeps everything: nothing is queued. */
  constructor(private readonly retentionMs: number | null) {}

  /** `key` may be freed `retentionMs` after `nowMs`. */
  add(key: K, nowMs: number): void {
    if (this.retentionMs === null) return;
    this.keys.push(key);
    this.dueAts.push(nowMs + this.retentionMs);
  }

  /** Hands every key now due to `free` (which may decide to keep it), oldest first. */
  sweep(nowMs: number, free: (key: K) => void): void {
    while (this.head < this.keys.length && (this.dueAts[this.head] as number) <= nowMs) {
      free(this.keys[this.head] as K);
      this.head++;
    }
    // Drop the consumed prefix now and then, so the arrays do not grow for ever.
    if (this.head > 1024 && this.head * 2 > this.keys.length) {
      this.keys = this.keys.slice(this.head);
      this.dueAts = this.dueAts.slice(this.head);
      this.head = 0;
    }
  }

  get length(): number {
    return this.keys.length - this.head;
  }
}
