import { describe, expect, it } from 'vitest';
import { BUCKETS_PER_PAGE, bucketCount, bucketPage } from './business-bucket-pages.js';

const at = (day: string) => new Date(`${day}T00:00:00Z`);

describe('the Business page’s pages of buckets', () => {
  it('counts the buckets as kit.metrics makes them: UTC days, weeks from Monday, months', () => {
    expect(bucketCount(at('2030-01-01'), at('2030-01-02'), 'day')).toBe(1);
    expect(bucketCount(at('2030-01-01'), at('2031-01-01'), 'day')).toBe(365);
    // 2030-01-01 is a Tuesday: its week began on Monday 2029-12-31; 2030-01-07 starts the second.
    expect(bucketCount(at('2030-01-01'), at('2030-01-08'), 'week')).toBe(2);
    expect(bucketCount(at('2030-01-15'), at('2030-03-02'), 'month')).toBe(3);
  });

  it('fits a short period on one page', () => {
    const period = { from: at('2030-01-01'), to: at('2030-03-01'), interval: 'day' as const };
    expect(bucketPage(period, 1)).toEqual({
      page: 1,
      pages: 1,
      buckets: 59,
      firstShown: 1,
      lastShown: 59,
      from: period.from,
      to: period.to,
    });
  });

  it('pages three years of days, the most recent first, each page on bucket bounds', () => {
    const period = { from: at('2028-01-01'), to: at('2031-01-01'), interval: 'day' as const };
    const latest = bucketPage(period, 1);
    expect(latest).toMatchObject({ page: 1, pages: 12, buckets: 1096, firstShown: 1005, lastShown: 1096 });
    expect(latest.to).toEqual(period.to);
    expect((latest.to.getTime() - latest.from.getTime()) / 86_400_000).toBe(BUCKETS_PER_PAGE);
    const second = bucketPage(period, 2);
    expect(second.to).toEqual(latest.from);
    // The earliest page holds what is left, from the form's first day; a page past it is it.
    const earliest = bucketPage(period, 99);
    expect(earliest).toMatchObject({ page: 12, firstShown: 1, lastShown: 1096 - 11 * BUCKETS_PER_PAGE });
    expect(earliest.from).toEqual(period.from);
  });

  it('pages weeks and months on their own starts', () => {
    const weeks = bucketPage({ from: at('2028-01-05'), to: at('2030-06-01'), interval: 'week' }, 1);
    expect(weeks.from.getUTCDay()).toBe(1);
    const months = bucketPage({ from: at('2020-06-15'), to: at('2030-06-15'), interval: 'month' }, 1);
    expect(months).toMatchObject({ pages: 2, buckets: 121 });
    expect(months.from).toEqual(at('2022-11-01'));
  });
});
