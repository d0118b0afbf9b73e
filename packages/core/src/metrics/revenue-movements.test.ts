import { describe, expect, it } from 'vitest';
import type { OfferDefinition } from '../schemas/offer.js';
import type { MetricsInterval } from './buckets.js';
import { revenueMovesOf } from './lifecycle-counts.js';
import { recurringRevenueOf, revenueMovementsReport as reportOfMoves } from './revenue-movements.js';
import type { SubscriptionLifecycle } from './subscription-lifecycle.js';
import { daysOfQuery, lived, OFFERS } from './test-support/lifecycles.js';

/** The report of the records, through their moves as a store answers them. */
const revenueMovementsReport = (
  query: { from: Date; to: Date; interval: MetricsInterval },
  lifecycles: SubscriptionLifecycle[],
  offers: OfferDefinition[],
  now: Date,
) => reportOfMoves(query, revenueMovesOf(lifecycles, daysOfQuery(query)), offers, now);

/** The headline at the start of `at`'s day, as the page asks the store for it. */
const recurringRevenueAt = (lifecycles: SubscriptionLifecycle[], at: Date) => {
  const day = at.toISOString().slice(0, 10);
  return recurringRevenueOf(revenueMovesOf(lifecycles, { from: day, to: day }));
};

const NOW = new Date('2030-03-15T00:00:00Z');

describe('revenueMovementsReport', () => {
  const lifecycles = [
    // New in January, churned in February.
    lived('s1', 'a', { trial: '2030-01-01', paid: '2030-01-08', ended: '2030-02-10' }),
    // Back in March: a reactivation.
    lived('s2', 'a', { paid: '2030-03-02' }, { offerUid: 'offer_paid' }),
    // New in February, a weekly worth 6,500 a month.
    lived('s3', 'b', { paid: '2030-02-03' }, { offerUid: 'offer_paid', monthlyValue: 6500 }),
    // A trial never paid: worth nothing, moves nothing.
    lived('s4', 'c', { trial: '2030-02-01', ended: '2030-02-08', cause: 'suspended' }),
    // In euros: a row of its own.
    lived('s5', 'd', { paid: '2030-01-15' }, { currency: 'EUR', monthlyValue: 900 }),
  ];
  const report = revenueMovementsReport(
    { from: new Date('2030-01-01T00:00:00Z'), to: new Date('2030-04-01T00:00:00Z'), interval: 'month' },
    lifecycles,
    OFFERS,
    NOW,
  );
  const row = (month: string, offerUid: string, currency = 'TND') =>
    report.rows.find(
      (one) =>
        one.start.startsWith(month) && one.offerUid === offerUid && one.newRevenue.currency === currency,
    );

  it('adds a paid subscription when its first charge is collected and takes it away when it ends', () => {
    expect(row('2030-01', 'offer_trial')).toMatchObject({
      newSubscriptions: 1,
      newRevenue: { amount: 4500 },
      netRevenue: { amount: 4500 },
      recurringRevenue: { amount: 4500, currency: 'TND' },
      complete: true,
    });
    expect(row('2030-02', 'offer_trial')).toMatchObject({
      churnedSubscriptions: 1,
      churnedRevenue: { amount: 4500 },
      netRevenue: { amount: -4500 },
      recurringRevenue: { amount: 0 },
    });
    expect(row('2030-02', 'offer_paid')).toMatchObject({
      newRevenue: { amount: 6500 },
      recurringRevenue: { amount: 6500 },
    });
  });

  it("counts a returning subscriber's new subscription as reactivated, not new", () => {
    expect(row('2030-03', 'offer_paid')).toMatchObject({
      newSubscriptions: 0,
      reactivatedSubscriptions: 1,
      reactivatedRevenue: { amount: 4500 },
      recurringRevenue: { amount: 11000 },
      complete: false,
    });
  });

  it('keeps currencies apart, each recurring revenue its previous one plus the net movement', () => {
    expect(row('2030-01', 'offer_trial', 'EUR')).toMatchObject({
      newRevenue: { amount: 900 },
      recurringRevenue: { amount: 900 },
    });
    const series = new Map<string, number>();
    for (const one of report.rows) {
      const id = `${one.offerUid}|${one.recurringRevenue.currency}`;
      expect(one.recurringRevenue.amount, id).toBe((series.get(id) ?? 0) + one.netRevenue.amount);
      series.set(id, one.recurringRevenue.amount);
    }
  });

  it('gives the headline recurring revenue per currency at any moment', () => {
    expect(recurringRevenueAt(lifecycles, new Date('2030-02-05T00:00:00Z'))).toEqual([
      { amount: 900, currency: 'EUR' },
      { amount: 11000, currency: 'TND' },
    ]);
    expect(recurringRevenueAt(lifecycles, NOW)).toEqual([
      { amount: 900, currency: 'EUR' },
      { amount: 11000, currency: 'TND' },
    ]);
    expect(recurringRevenueAt(lifecycles, new Date('2029-12-31T00:00:00Z'))).toEqual([]);
  });
});
