import { describe, expect, it } from 'vitest';
import { bucketIndexOf, bucketStartOf, bucketsBefore, bucketsOf } from './buckets.js';

const iso = (date: Date) => date.toISOString();

describe('buckets', () => {
  it('start at 00:00 UTC: a day, a week from Monday, a month from the 1st', () => {
    const at = new Date('2030-06-13T23:30:00.000Z'); // a Thursday
    expect(iso(bucketStartOf(at, 'day'))).toBe('2030-06-13T00:00:00.000Z');
    expect(iso(bucketStartOf(at, 'week'))).toBe('2030-06-10T00:00:00.000Z');
    expect(iso(bucketStartOf(at, 'month'))).toBe('2030-06-01T00:00:00.000Z');
    expect(iso(bucketStartOf(new Date('2030-06-16T12:00:00Z'), 'week'))).toBe('2030-06-10T00:00:00.000Z');
    expect(iso(bucketStartOf(new Date('2030-06-17T00:00:00Z'), 'week'))).toBe('2030-06-17T00:00:00.000Z');
  });

  it('cover from the bucket of `from` to the last one starting before `to`', () => {
    const months = bucketsOf(new Date('2030-01-15T00:00:00Z'), new Date('2030-04-01T00:00:00Z'), 'month');
    expect(months.startDays).toEqual(['2030-01-01', '2030-02-01', '2030-03-01']);
    expect(months.endDay).toBe('2030-04-01');
    const one = bucketsOf(new Date('2030-01-15T10:00:00Z'), new Date('2030-01-15T11:00:00Z'), 'day');
    expect(one.startDays).toEqual(['2030-01-15']);
    expect(bucketsOf(new Date('2030-01-01Z'), new Date('2031-01-01Z'), 'day').starts).toHaveLength(365);
  });

  it('find the bucket of a day, and none outside them', () => {
    const weeks = bucketsOf(new Date('2030-06-10T00:00:00Z'), new Date('2030-07-01T00:00:00Z'), 'week');
    expect(weeks.startDays).toEqual(['2030-06-10', '2030-06-17', '2030-06-24']);
    expect(bucketIndexOf('2030-06-09', weeks)).toBe(-1);
    expect(bucketIndexOf('2030-06-10', weeks)).toBe(0);
    expect(bucketIndexOf('2030-06-16', weeks)).toBe(0);
    expect(bucketIndexOf('2030-06-17', weeks)).toBe(1);
    expect(bucketIndexOf('2030-06-30', weeks)).toBe(2);
    expect(bucketIndexOf('2030-07-01', weeks)).toBe(-1);
  });

  it('give the previous period as many buckets long, ending where the period begins', () => {
    const quarter = bucketsOf(new Date('2030-01-01Z'), new Date('2030-04-01Z'), 'month');
    const before = bucketsBefore(quarter, 'month');
    expect(before.startDays).toEqual(['2029-10-01', '2029-11-01', '2029-12-01']);
    expect(before.endDay).toBe('2030-01-01');
    const fortnight = bucketsOf(new Date('2030-06-10Z'), new Date('2030-06-24Z'), 'week');
    expect(bucketsBefore(fortnight, 'week').startDays).toEqual(['2030-05-27', '2030-06-03']);
    const days = bucketsOf(new Date('2030-03-01Z'), new Date('2030-03-03Z'), 'day');
    expect(bucketsBefore(days, 'day').startDays).toEqual(['2030-02-27', '2030-02-28']);
  });
});
