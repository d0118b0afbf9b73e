import { optionError } from '../errors/option-error.js';
import { METRICS_INTERVALS, type MetricsInterval } from './buckets.js';
import { checkViewQuery } from './view-query.js';

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

/**
 * The query checked, its interval filled in: a DcbError `invalid_option` naming what is wrong and
 * `where` it was asked (`kit.metrics`, `kit.checkoutFunnel`). The dates, the interval and the
 * longest range are every view's (checkViewQuery); the offer is this one's.
 */
export function checkMetricsQuery(query: MetricsQuery, where = 'kit.metrics'): CheckedMetricsQuery {
  const { from, to, interval } = checkViewQuery(where, query, METRICS_INTERVALS);
  const { offerUid } = query;
  if (offerUid !== undefined && (typeof offerUid !== 'string' || offerUid === '')) {
    throw optionError(where, 'offerUid', 'must be an offer uid, or absent for every offer.');
  }
  return { from, to, interval, offerUid };
}
