/** The width of a metrics bucket; weeks start on Monday, and every bucket at 00:00 UTC. */
export type MetricsInterval = 'day' | 'week' | 'month';

export const METRICS_INTERVALS: readonly MetricsInterval[] = ['day', 'week', 'month'];

export interface Buckets {
  /** Each bucket's first instant, in order. */
  readonly starts: readonly Date[];
  /** The same as `YYYY-MM-DD`. */
  readonly startDays: readonly string[];
  /** The last bucket's end. */
  readonly end: Date;
  readonly endDay: string;
}

/** The start of the bucket holding `at`. */
export function bucketStartOf(at: Date, interval: MetricsInterval): Date {
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  if (interval === 'day') return new Date(day);
  if (interval === 'month') return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
  return new Date(day - sinceMonday * 86_400_000);
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucketStart(start: Date, interval: MetricsInterval): Date {
  if (interval === 'month') return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  return new Date(start.getTime() + (interval === 'week' ? 7 : 1) * 86_400_000);
}

/** The buckets from the one holding `from` to the last one starting before `to`; at least one. */
export function bucketsOf(from: Date, to: Date, interval: MetricsInterval): Buckets {
  const starts: Date[] = [];
  let start = bucketStartOf(from, interval);
  do {
    starts.push(start);
    start = nextBucketStart(start, interval);
  } while (start.getTime() < to.getTime());
  return { starts, startDays: starts.map(dayOf), end: start, endDay: dayOf(start) };
}

/** As many buckets as `buckets` holds, just before them: the previous period of the same length. */
export function bucketsBefore(buckets: Buckets, interval: MetricsInterval): Buckets {
  const first = buckets.starts[0] as Date;
  const count = buckets.starts.length;
  const from =
    interval === 'month'
      ? new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() - count, 1))
      : new Date(first.getTime() - count * (interval === 'week' ? 7 : 1) * 86_400_000);
  return bucketsOf(from, first, interval);
}

/** The index of the bucket holding the UTC day `day` (`YYYY-MM-DD`), -1 when outside them all. */
export function bucketIndexOf(day: string, buckets: Buckets): number {
  if (day >= buckets.endDay || day < (buckets.startDays[0] ?? '')) return -1;
  let low = 0;
  let high = buckets.startDays.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((buckets.startDays[middle] as string) <= day) low = middle;
    else high = middle - 1;
  }
  return low;
}

function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}
