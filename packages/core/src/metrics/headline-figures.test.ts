import { describe, expect, it } from 'vitest';
import type { OfferDefinition } from '../schemas/offer.js';
import { offer } from '../test-support/fixtures.js';
import { metricsTotals, type PeriodNumbers } from './headline-figures.js';
import type { MetricsRow } from './metrics-report.js';

const monthly = offer('off_monthly');
const noGrace: OfferDefinition = {
  ...monthly,
  offerUid: 'off_daily',
  gracePolicy: { days: 0, accessDuringGrace: false },
};

function row(start: string, offerUid: string, numbers: Partial<MetricsRow>): MetricsRow {
  return {
    start,
    offerUid,
    productUid: 'prod_premium',
    activeSubscribers: 0,
    trialsStarted: 0,
    trialsConverted: 0,
    newSubscriptions: 0,
    renewalsCollected: 0,
    renewalsFailed: 0,
    graceRecovered: 0,
    churned: { canceled: 0, expired: 0, suspended: 0, revoked: 0 },
    unitsSold: 0,
    unitsSpent: 0,
    unlocksSold: 0,
    collected: { amount: 0, currency: 'TND' },
    ...numbers,
  };
}

const NOTHING: PeriodNumbers = { rows: [], liveAtStart: 0 };

describe('metricsTotals', () => {
  it('reads live subscribers at the period’s end, over every offer', () => {
    const current: PeriodNumbers = {
      liveAtStart: 4,
      rows: [
        row('2030-06-01', 'off_monthly', { activeSubscribers: 5, newSubscriptions: 1 }),
        row('2030-06-01', 'off_daily', { activeSubscribers: 1 }),
        row('2030-06-02', 'off_monthly', { activeSubscribers: 3 }),
        row('2030-06-02', 'off_daily', { activeSubscribers: 2 }),
      ],
    };
    const totals = metricsTotals(current, { rows: [], liveAtStart: 4 }, [monthly, noGrace]);
    expect(totals.activeSubscribers).toEqual({ value: 5, previous: 4 });
  });

  it('rates churn over the live at the start and the started in the period', () => {
    const current: PeriodNumbers = {
      liveAtStart: 6,
      rows: [
        row('2030-06-01', 'off_monthly', {
          trialsStarted: 1,
          newSubscriptions: 1,
          churned: { canceled: 1, expired: 1, suspended: 0, revoked: 0 },
        }),
      ],
    };
    expect(metricsTotals(current, NOTHING, [monthly]).churnRate).toEqual({ value: 2 / 8, previous: null });
  });

  it('counts a suspension of an offer with no grace as a failed first attempt, never a grace', () => {
    const current: PeriodNumbers = {
      liveAtStart: 10,
      rows: [
        // Four renewals due on the monthly plan: three collected at once, one failed into grace and recovered.
        row('2030-06-01', 'off_monthly', { renewalsCollected: 4, renewalsFailed: 1, graceRecovered: 1 }),
        // Three on the daily plan: two collected, one suspended at once.
        row('2030-06-01', 'off_daily', {
          renewalsCollected: 2,
          churned: { canceled: 0, expired: 0, suspended: 1, revoked: 0 },
        }),
      ],
    };
    const totals = metricsTotals(current, NOTHING, [monthly, noGrace]);
    expect(totals.firstAttemptCollectionRate.value).toBe(5 / 7);
    expect(totals.graceRecoveryRate.value).toBe(1);
  });

  it('says null where a rate measures nothing, and where the store cannot tell', () => {
    const totals = metricsTotals(NOTHING, NOTHING, [monthly]);
    expect(totals).toEqual({
      activeSubscribers: { value: 0, previous: 0 },
      recurringRevenue: [],
      trialConversionRate: { value: null, previous: null },
      churnRate: { value: null, previous: null },
      firstAttemptCollectionRate: { value: null, previous: null },
      graceRecoveryRate: { value: null, previous: null },
      checkoutConversionRate: { value: null, previous: null },
    });
  });

  it('rates trials and checkouts over those ended, leaving out those still open', () => {
    const current: PeriodNumbers = {
      ...NOTHING,
      trials: { started: 10, converted: 3, stillInTrial: 4 },
      checkouts: { started: 20, succeeded: 9, pending: 2 },
    };
    const totals = metricsTotals(current, NOTHING, [monthly]);
    expect(totals.trialConversionRate.value).toBe(3 / 6);
    expect(totals.checkoutConversionRate.value).toBe(9 / 18);
  });

  it('keeps recurring revenue per currency, one that only the previous period had included', () => {
    const totals = metricsTotals(
      { ...NOTHING, recurringRevenue: [{ amount: 9000, currency: 'TND' }] },
      { ...NOTHING, recurringRevenue: [{ amount: 500, currency: 'EUR' }] },
      [monthly],
    );
    expect(totals.recurringRevenue).toEqual([
      { currency: 'EUR', value: 0, previous: 500 },
      { currency: 'TND', value: 9000, previous: 0 },
    ]);
  });
});
