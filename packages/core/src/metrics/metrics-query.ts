import { optionError } from '../errors/option-error.js';
import { METRICS_INTERVALS, type MetricsInterval } from './buckets.js';

/** What `kit.metrics` is asked: the buckets from the one holding `from` to the last one starting before `to`. */
export interface MetricsQuery {
  readonly from: Date;
  readonly to: Date;
  /** Default `day`. */
  readonly interval?: MetricsInterval;
  /** Only this offer's rows, and the headline figures of it alone; every offer when absent. */
  readonly offerUid?: string | undefined;
}

/** A query checked: its interval filled in. */
export interface CheckedMetricsQuery {
  readonly from: Date;
  readonly to: Date;
  readonly interval: MetricsInterval;
  readonly offerUid: string | undefined;
}

/** The longest range answered at once: ten years of days. */
const MAX_BUCKETS_DAYS = 3_660;

/**
 * The query checked, its interval filled in: a DcbError `invalid_option` naming what is wrong and
 * `where` it was asked (`kit.metrics`, `kit.checkoutFunnel`).
 */
export function checkMetricsQuery(query: MetricsQuery, where = 'kit.metrics'): CheckedMetricsQuery {
  if (typeof query !== 'object' || query === null)
    throw optionError(where, 'query', 'is required: { from, to, interval }.');
  const { from, to, interval = 'day', offerUid } = query;
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
      throw optionError(where, name, 'must be a valid Date.');
    }
  }
  if (to.getTime() <= from.getTime()) throw optionError(where, 'to', 'must be later than from.');
  if (!METRICS_INTERVALS.includes(interval)) {
    throw optionError(where, 'interval', `must be one of ${METRICS_INTERVALS.join(', ')}.`);
  }
  if ((to.getTime() - from.getTime()) / 86_400_000 > MAX_BUCKETS_DAYS) {
    throw optionError(where, 'to', 'is more than ten years after from: ask for less at once.');
  }
  if (offerUid !== undefined && (typeof offerUid !== 'string' || offerUid === '')) {
    throw optionError(where, 'offerUid', 'must be an offer uid, or absent for every offer.');
  }
  return { from, to, interval, offerUid };
}
