import { describe, expect, it } from 'vitest';
import type { OfferDefinition } from '../schemas/offer.js';
import { cohortsReport as reportOfCounts } from './cohorts.js';
import { cohortCountsOf } from './lifecycle-counts.js';
import type { SubscriptionLifecycle } from './subscription-lifecycle.js';
import { daysOfQuery, lived, OFFERS } from './test-support/lifecycles.js';

/** The report of the records, through their counts as a store answers them. */
const cohortsReport = (
  query: { from: Date; to: Date },
  lifecycles: SubscriptionLifecycle[],
  offers: OfferDefinition[],
  now: Date,
) => reportOfCounts(query, cohortCountsOf(lifecycles, daysOfQuery(query)), offers, now);

const query = { from: new Date('2030-01-01T00:00:00Z'), to: new Date('2030-03-01T00:00:00Z') };
const NOW = new Date('2030-03-15T00:00:00Z');

describe('cohortsReport', () => {
  it('puts each subscriber in the month of their first paid charge, and counts who holds a live paid subscription at each month end', () => {
    const report = cohortsReport(
      query,
      [
        // January: a trial converted in January, cancelled in February.
        lived('s1', 'a', { trial: '2030-01-03', paid: '2030-01-10', ended: '2030-02-10' }),
        // January: paid, never ended.
        lived('s2', 'b', { paid: '2030-01-20' }, { offerUid: 'offer_paid' }),
        // February: a trial begun in January converts in February.
        lived('s3', 'c', { trial: '2030-01-28', paid: '2030-02-04' }),
        // Never paid: in no cohort.
        lived('s4', 'd', { trial: '2030-01-05', ended: '2030-01-12', cause: 'suspended' }),
      ],
      OFFERS,
      NOW,
    );
    const cells = (start: string, offerUid: string) => {
      const row = report.rows.find((one) => one.start === start && one.offerUid === offerUid);
      return (
        row && { size: row.size, retained: row.retained.map((cell) => [cell.subscribers, cell.complete]) }
      );
    };
    expect(cells('2030-01-01T00:00:00.000Z', 'offer_trial')).toEqual({
      size: 1,
      retained: [
        [1, true],
        [0, true],
        [0, false],
      ],
    });
    expect(cells('2030-01-01T00:00:00.000Z', 'offer_paid')).toEqual({
      size: 1,
      retained: [
        [1, true],
        [1, true],
        [1, false],
      ],
    });
    expect(cells('2030-02-01T00:00:00.000Z', 'offer_trial')).toEqual({
      size: 1,
      retained: [
        [1, true],
        [1, false],
      ],
    });
    // Every cohort month of every subscription offer, zeros included; the pass has none.
    expect(report.rows.map((row) => `${row.start.slice(0, 7)} ${row.offerUid}`)).toEqual([
      '2030-01 offer_trial',
      '2030-01 offer_paid',
      '2030-02 offer_trial',
      '2030-02 offer_paid',
    ]);
    expect(report).toMatchObject({
      from: '2030-01-01T00:00:00.000Z',
      to: '2030-03-01T00:00:00.000Z',
      interval: 'month',
    });
  });

  it('keeps a returning subscriber in their first cohort, retained again once they come back', () => {
    const report = cohortsReport(
      query,
      [
        lived('s1', 'a', { paid: '2030-01-05', ended: '2030-01-20' }, { offerUid: 'offer_paid' }),
        // The same account and product: a new subscription in February.
        lived('s2', 'a', { paid: '2030-02-10' }),
      ],
      OFFERS,
      NOW,
    );
    const january = report.rows.find(
      (row) => row.start.startsWith('2030-01') && row.offerUid === 'offer_paid',
    );
    expect(january?.size).toBe(1);
    expect(january?.retained.map((cell) => cell.subscribers)).toEqual([0, 1, 1]);
    expect(report.rows.filter((row) => row.start.startsWith('2030-02')).every((row) => row.size === 0)).toBe(
      true,
    );
  });

  it('counts a subscription ended at the month end itself as live then, as kit.metrics does', () => {
    const report = cohortsReport(
      query,
      [lived('s1', 'a', { paid: '2030-01-05', ended: '2030-02-01' })],
      OFFERS,
      NOW,
    );
    expect(report.rows[0]?.retained.map((cell) => cell.subscribers)).toEqual([1, 0, 0]);
  });
});
