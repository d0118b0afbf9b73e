import { describe, expect, it } from 'vitest';
import { memoryMetrics } from '../store/memory-metrics.js';
import { offers } from '../test-support/fixtures.js';
import type { MetricEntry } from './metric-entry.js';
import { metricsReport } from './metrics-report.js';

function fact(key: string, occurredAt: string, fields: Partial<MetricEntry>): MetricEntry {
  return {
    key,
    kind: 'renewal_collected',
    offerUid: 'off_monthly',
    productUid: 'prod_premium',
    occurredAt,
    count: 1,
    amount: 4500,
    currency: 'TND',
    live: 0,
    ...fields,
  };
}

describe('metricsReport', () => {
  it('gives a row per bucket and offer, zeros included, live subscribers carried from before the range', async () => {
    const store = memoryMetrics();
    await store.recordMetrics([
      fact('a', '2030-05-20T10:00:00Z', { kind: 'new_subscription', live: 1 }),
      fact('b', '2030-06-02T10:00:00Z', { kind: 'new_subscription', live: 1 }),
      fact('c', '2030-06-03T10:00:00Z', { kind: 'renewal_collected' }),
      fact('d', '2030-06-09T10:00:00Z', { kind: 'churn_canceled', amount: 0, live: -1 }),
      fact('e', '2030-06-09T11:00:00Z', {
        kind: 'unit_sold',
        offerUid: 'off_credits',
        productUid: 'prod_credits',
        amount: 2000,
      }),
      fact('f', '2030-06-16T00:00:00Z', { kind: 'new_subscription', live: 1 }),
    ]);
    const query = {
      from: new Date('2030-06-03T00:00:00Z'),
      to: new Date('2030-06-16T00:00:00Z'),
      interval: 'week' as const,
    };
    const report = metricsReport(
      query,
      await store.readMetricDays({ from: '2030-06-03', to: '2030-06-17' }),
      offers.list,
    );
    expect(report.from).toBe('2030-06-03T00:00:00.000Z');
    expect(report.to).toBe('2030-06-17T00:00:00.000Z');
    const monthly = report.rows.filter((row) => row.offerUid === 'off_monthly');
    expect(
      monthly.map((row) => [
        row.start.slice(0, 10),
        row.activeSubscribers,
        row.renewalsCollected,
        row.churned.canceled,
        row.newSubscriptions,
        row.collected.amount,
      ]),
    ).toEqual([
      ['2030-06-03', 1, 1, 1, 0, 4500],
      ['2030-06-10', 2, 0, 0, 1, 4500],
    ]);
    // Every configured offer has its rows; the credits' sale lands in its week (June 9 is a Sunday).
    expect(new Set(report.rows.map((row) => row.offerUid))).toEqual(
      new Set(offers.list.map((one) => one.offerUid)),
    );
    expect(report.rows.filter((row) => row.offerUid === 'off_credits').map((row) => row.unitsSold)).toEqual([
      1, 0,
    ]);
  });
});
