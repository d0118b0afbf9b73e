import { describe, expect, it } from 'vitest';
import type { OfferDefinition } from '../schemas/offer.js';
import type { MetricsInterval } from './buckets.js';
import { trialOutcomesOf } from './lifecycle-counts.js';
import type { SubscriptionLifecycle } from './subscription-lifecycle.js';
import { daysOfQuery, lived, OFFERS } from './test-support/lifecycles.js';
import { trialFunnelReport as reportOfOutcomes } from './trial-funnel.js';

/** The report of the records, through their outcomes as a store answers them. */
const trialFunnelReport = (
  query: { from: Date; to: Date; interval: MetricsInterval },
  lifecycles: SubscriptionLifecycle[],
  offers: OfferDefinition[],
  now: Date,
) => reportOfOutcomes(query, trialOutcomesOf(lifecycles, daysOfQuery(query)), offers, now);

describe('trialFunnelReport', () => {
  it('counts each trial once, in the bucket it began, with what it became so far', () => {
    const report = trialFunnelReport(
      { from: new Date('2030-01-01T00:00:00Z'), to: new Date('2030-01-14T00:00:00Z'), interval: 'week' },
      [
        lived('s1', 'a', { trial: '2030-01-01', paid: '2030-01-08' }),
        lived('s2', 'b', { trial: '2030-01-02' }),
        lived('s3', 'c', { trial: '2030-01-03', ended: '2030-01-05', cause: 'canceled' }),
        lived('s4', 'd', { trial: '2030-01-04', ended: '2030-01-11', cause: 'expired' }),
        lived('s5', 'e', { trial: '2030-01-05', ended: '2030-01-15', cause: 'suspended' }),
        // Converted, then churned: still converted.
        lived('s6', 'f', { trial: '2030-01-08', paid: '2030-01-15', ended: '2030-01-20' }),
        // No trial: not in the funnel.
        lived('s7', 'g', { paid: '2030-01-02' }, { offerUid: 'offer_paid' }),
      ],
      OFFERS,
      new Date('2030-01-25T00:00:00Z'),
    );
    // Weeks start on Monday: 2029-12-31 and 2030-01-07; only the offer with a trial has rows.
    expect(report.rows).toEqual([
      {
        start: '2029-12-31T00:00:00.000Z',
        offerUid: 'offer_trial',
        productUid: 'prod_premium',
        started: 5,
        converted: 1,
        inTrial: 1,
        canceled: 2,
        failedToPay: 1,
      },
      {
        start: '2030-01-07T00:00:00.000Z',
        offerUid: 'offer_trial',
        productUid: 'prod_premium',
        started: 1,
        converted: 1,
        inTrial: 0,
        canceled: 0,
        failedToPay: 0,
      },
    ]);
  });
});
