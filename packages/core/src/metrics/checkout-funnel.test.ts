import { describe, expect, it } from 'vitest';
import { memoryMetrics } from '../store/memory-metrics.js';
import { offers } from '../test-support/fixtures.js';
import { checkoutEndEntry, checkoutStartedEntry } from './checkout-facts.js';
import { checkoutFunnel } from './checkout-funnel.js';
import type { MetricEntry } from './metric-entry.js';
import { metricsReport } from './metrics-report.js';

/** A checkout of `offerUid` started at `at`, and its ending when it ended. */
function checkoutFacts(
  paymentUid: string,
  at: string,
  ending?: { status: 'SUCCEEDED' | 'FAILED' | 'EXPIRED' | 'CANCELED'; failureCode?: string },
  offerUid = 'off_monthly',
): MetricEntry[] {
  const checkout = { paymentUid, offerUid, productUid: 'prod_premium', recordedAt: at };
  const ended = ending && checkoutEndEntry(checkout, ending, 'TND');
  return [checkoutStartedEntry(checkout, 'TND'), ...(ended ? [ended] : [])];
}

const query = {
  from: new Date('2030-06-03T00:00:00Z'),
  to: new Date('2030-06-17T00:00:00Z'),
  interval: 'week' as const,
};

describe('checkoutFunnel', () => {
  it('counts each checkout once, in the bucket it started, refusals and failures by code', async () => {
    const store = memoryMetrics();
    await store.recordMetrics([
      ...checkoutFacts('p1', '2030-06-03T10:00:00Z', { status: 'SUCCEEDED' }),
      ...checkoutFacts('p2', '2030-06-04T10:00:00Z', { status: 'FAILED', failureCode: 'SUB-108' }),
      ...checkoutFacts('p3', '2030-06-04T11:00:00Z', { status: 'EXPIRED', failureCode: 'RSK-101' }),
      ...checkoutFacts('p4', '2030-06-05T10:00:00Z', { status: 'FAILED', failureCode: 'PAY-101' }),
      ...checkoutFacts('p5', '2030-06-05T11:00:00Z', { status: 'FAILED', failureCode: 'PAY-101' }),
      ...checkoutFacts('p6', '2030-06-06T10:00:00Z', { status: 'FAILED' }),
      ...checkoutFacts('p7', '2030-06-07T10:00:00Z', { status: 'EXPIRED' }),
      ...checkoutFacts('p8', '2030-06-08T10:00:00Z', { status: 'CANCELED' }),
      ...checkoutFacts('p9', '2030-06-09T23:59:59Z'),
      // The next week: one started, one of another offer no longer sold.
      ...checkoutFacts('p10', '2030-06-10T00:00:00Z'),
      ...checkoutFacts('p11', '2030-06-11T00:00:00Z', { status: 'SUCCEEDED' }, 'off_gone'),
      // Before the range: not counted.
      ...checkoutFacts('p0', '2030-06-02T23:00:00Z', { status: 'SUCCEEDED' }),
    ]);
    // A checkout told again (a webhook after the return page's read) adds nothing.
    await store.recordMetrics(checkoutFacts('p4', '2030-06-05T10:00:00Z', { status: 'FAILED' }));
    const { days } = await store.readMetricDays({ from: '2030-06-03', to: '2030-06-17' });
    const report = checkoutFunnel(query, days, offers.list);
    expect(report).toMatchObject({ from: '2030-06-03T00:00:00.000Z', to: '2030-06-17T00:00:00.000Z' });
    const row = (start: string, offerUid: string) =>
      report.rows.find((one) => one.start.startsWith(start) && one.offerUid === offerUid);
    expect(row('2030-06-03', 'off_monthly')).toEqual({
      start: '2030-06-03T00:00:00.000Z',
      offerUid: 'off_monthly',
      productUid: 'prod_premium',
      started: 9,
      succeeded: 1,
      refused: { 'RSK-101': 1, 'SUB-108': 1 },
      failed: { 'PAY-101': 2, none: 1 },
      expired: 1,
      canceled: 1,
      pending: 1,
    });
    expect(row('2030-06-10', 'off_monthly')).toMatchObject({
      started: 1,
      pending: 1,
      refused: {},
      failed: {},
    });
    expect(row('2030-06-10', 'off_gone')).toMatchObject({ started: 1, succeeded: 1, pending: 0 });
    // Every offer sold in every bucket (zeros included), then the others.
    expect(report.rows.map((one) => one.offerUid)).toEqual([
      ...offers.list.map((offer) => offer.offerUid),
      'off_gone',
      ...offers.list.map((offer) => offer.offerUid),
      'off_gone',
    ]);
    expect(row('2030-06-03', 'off_trial')).toMatchObject({ started: 0, pending: 0 });
  });

  it('leaves the business report as it was: the checkout kinds are not its numbers', async () => {
    const store = memoryMetrics();
    await store.recordMetrics(
      checkoutFacts('p1', '2030-06-03T10:00:00Z', { status: 'SUCCEEDED' }, 'off_gone'),
    );
    const days = await store.readMetricDays({ from: '2030-06-03', to: '2030-06-17' });
    const empty = { days: [], liveBefore: [] };
    expect(metricsReport(query, days, offers.list)).toEqual(metricsReport(query, empty, offers.list));
  });
});
