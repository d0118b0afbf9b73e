import type { MetricsReport } from '@dcbkit/core';

type MetricsRow = MetricsReport['rows'][number];

/** A row of a metrics report: zeros but what the test names. */
export function metricsRow(
  start: string,
  offerUid: string,
  numbers: Partial<Omit<MetricsRow, 'start' | 'offerUid' | 'churned'>> & {
    churned?: Partial<MetricsRow['churned']>;
  } = {},
): MetricsRow {
  const { churned, ...counts } = numbers;
  return {
    start,
    offerUid,
    productUid: `prod_of_${offerUid}`,
    activeSubscribers: 0,
    trialsStarted: 0,
    trialsConverted: 0,
    newSubscriptions: 0,
    renewalsCollected: 0,
    renewalsFailed: 0,
    graceRecovered: 0,
    unitsSold: 0,
    unitsSpent: 0,
    unlocksSold: 0,
    collected: { amount: 0, currency: 'TND' },
    ...counts,
    churned: { canceled: 0, expired: 0, suspended: 0, revoked: 0, ...churned },
  };
}
