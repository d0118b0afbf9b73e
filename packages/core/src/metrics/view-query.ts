import { optionError } from '../errors/option-error.js';
import { METRICS_INTERVALS, type MetricsInterval } from './buckets.js';

/** What a view of the subscriptions' lifecycles is asked: the buckets from the one holding `from` to the last one starting before `to`. */
export interface LifecycleViewQuery<I extends MetricsInterval = MetricsInterval> {
  readonly from: Date;
  readonly to: Date;
  readonly interval?: I;
}

/** The longest range answered at once: ten years of days, as kit.metrics. */
const MAX_RANGE_DAYS = 3_660;

/**
 * A view's query checked, its interval filled in (the first of `intervals` by default): a DcbError
 * `invalid_option` naming what is wrong, as checkMetricsQuery does for kit.metrics.
 */
export function checkViewQuery<I extends MetricsInterval>(
  where: string,
  query: LifecycleViewQuery<I>,
  intervals: readonly I[],
): Required<LifecycleViewQuery<I>> {
  if (typeof query !== 'object' || query === null)
    throw optionError(where, 'query', 'is required: { from, to, interval }.');
  const { from, to, interval = intervals[0] as I } = query;
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
      throw optionError(where, name, 'must be a valid Date.');
    }
  }
  if (to.getTime() <= from.getTime()) throw optionError(where, 'to', 'must be later than from.');
  if (!intervals.includes(interval)) {
    throw optionError(where, 'interval', `must be one of ${intervals.join(', ')}.`);
  }
  if ((to.getTime() - from.getTime()) / 86_400_000 > MAX_RANGE_DAYS) {
    throw optionError(where, 'to', 'is more than ten years after from: ask for less at once.');
  }
  return { from, to, interval };
}

export const VIEW_INTERVALS = METRICS_INTERVALS;
