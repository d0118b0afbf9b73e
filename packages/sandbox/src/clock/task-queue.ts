/** What the queue orders: due time, then creation order. */
export interface QueuedTask {
  id: number;
  dueAt: number;
  /** Set by cancel(); the entry leaves the heap when it reaches the top. */
  cancelled: boolean;
}

function before(a: QueuedTask, b: QueuedTask): boolean {
  return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.id < b.id);
}

/**
 * A binary min-heap of tasks by (dueAt, id): O(log n) to add and to take the earliest, so a clock
 * holding 100,000 tasks (one expiry per open payment, say) schedules and runs each in log time.
 * Cancelling marks the task; it is dropped when it surfaces, and `size` counts live tasks only.
 */
export class TaskQueue<T extends QueuedTask> {
  private readonly heap: T[] = [];
  private live = 0;

  get size(): number {
    return this.live;
  }

  push(task: T): void {
    const heap = this.heap;
    heap.push(task);
    this.live++;
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(heap[index] as T, heap[parent] as T)) break;
      [heap[index], heap[parent]] = [heap[parent] as T, heap[index] as T];
      index = parent;
    }
  }

  /** Marks a queued task cancelled. */
  cancel(task: T): void {
    if (task.cancelled) return;
    task.cancelled = true;
    this.live--;
  }

  /** The earliest live task, left in the queue. */
  peek(): T | undefined {
    this.dropCancelledTop();
    return this.heap[0];
  }

  /** Takes the earliest live task if it is due by `limit`. */
  takeDueBy(limit: number): T | undefined {
    const top = this.peek();
    if (!top || top.dueAt > limit) return undefined;
    this.popTop();
    this.live--;
    // A taken task can no longer be cancelled into the count.
    top.cancelled = true;
    return top;
  }

  /** Every live task, earliest first (a copy; O(n log n), for display). */
  sorted(): T[] {
    return this.heap.filter((task) => !task.cancelled).sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
  }

  clear(): void {
    for (const task of this.heap) task.cancelled = true;
    this.heap.length = 0;
    this.live = 0;
  }

  private dropCancelledTop(): void {
    while (this.heap.length > 0 && (this.heap[0] as T).cancelled) this.popTop();
  }

  private popTop(): void {
    const heap = this.heap;
    const last = heap.pop() as T;
    if (heap.length === 0) return;
    heap[0] = last;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < heap.length && before(heap[left] as T, heap[smallest] as T)) smallest = left;
      if (right < heap.length && before(heap[right] as T, heap[smallest] as T)) smallest = right;
      if (smallest === index) return;
      [heap[index], heap[smallest]] = [heap[smallest] as T, heap[index] as T];
      index = smallest;
    }
  }
}
