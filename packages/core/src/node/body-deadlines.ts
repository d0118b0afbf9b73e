/** A body read in flight, in a list kept in deadline order. */
export interface BodyDeadline {
  readonly list: DeadlineList;
  readonly at: number;
  readonly expire: () => void;
  previous: BodyDeadline | undefined;
  next: BodyDeadline | undefined;
  linked: boolean;
}

/**
 * Bounds how long bodies may take to arrive with one interval timer for all reads in flight,
 * where a setTimeout/clearTimeout pair per request was a measurable share of the webhook route's
 * CPU (issue 29). As in webhooks/deadlines.ts: every deadline of a list is `ms` after its start,
 * so reads join the list already in deadline order (a few pointer writes), and a sweep stops at
 * the first deadline still ahead. A deadline fires within a fifth of `ms` (at most 1 s) after it
 * passes. The interval runs only while a body is in flight.
 */
class DeadlineList {
  private oldest: BodyDeadline | undefined;
  private newest: BodyDeadline | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly tickMs: number;

  constructor(private readonly ms: number) {
    this.tickMs = Math.min(1_000, Math.max(10, Math.floor(ms / 5)));
  }

  add(expire: () => void): BodyDeadline {
    const entry: BodyDeadline = {
      list: this,
      at: Date.now() + this.ms,
      expire,
      previous: this.newest,
      next: undefined,
      linked: true,
    };
    if (this.newest) this.newest.next = entry;
    else this.oldest = entry;
    this.newest = entry;
    if (this.timer === undefined) this.timer = setInterval(() => this.sweep(), this.tickMs);
    return entry;
  }

  remove(entry: BodyDeadline): void {
    if (!entry.linked) return;
    entry.linked = false;
    if (entry.previous) entry.previous.next = entry.next;
    else this.oldest = entry.next;
    if (entry.next) entry.next.previous = entry.previous;
    else this.newest = entry.previous;
  }

  private sweep(): void {
    const now = Date.now();
    while (this.oldest !== undefined && this.oldest.at <= now) {
      const due = this.oldest;
      this.remove(due);
      due.expire();
    }
    if (this.oldest === undefined && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

// One list per timeout: an app passes one or two distinct values, and each list stays in order.
const lists = new Map<number, DeadlineList>();

/** Calls `expire` once `ms` have passed, unless the returned entry is cleared first. */
export function startBodyDeadline(ms: number, expire: () => void): BodyDeadline {
  let list = lists.get(ms);
  if (list === undefined) {
    list = new DeadlineList(ms);
    lists.set(ms, list);
  }
  return list.add(expire);
}

export function clearBodyDeadline(entry: BodyDeadline): void {
  entry.list.remove(entry);
}
