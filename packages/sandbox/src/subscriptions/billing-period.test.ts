import { describe, expect, it } from 'vitest';
import { addBillingPeriod } from './billing-period.js';

const from = (iso: string) => new Date(iso);

describe('addBillingPeriod', () => {
  it('adds calendar months in UTC, clamping to the last day of a shorter month', () => {
    expect(addBillingPeriod(from('2030-01-31T10:00:00Z'), { unit: 'MONTH', count: 1 }).toISOString()).toBe(
      '2030-02-28T10:00:00.000Z',
    );
    expect(addBillingPeriod(from('2032-01-31T10:00:00Z'), { unit: 'MONTH', count: 1 }).toISOString()).toBe(
      '2032-02-29T10:00:00.000Z',
    );
    expect(addBillingPeriod(from('2030-11-15T00:00:00Z'), { unit: 'MONTH', count: 3 }).toISOString()).toBe(
      '2031-02-15T00:00:00.000Z',
    );
  });

  it('adds days, weeks and years', () => {
    const start = from('2032-02-29T00:00:00Z');
    expect(addBillingPeriod(start, { unit: 'DAY', count: 2 }).toISOString()).toBe('2032-03-02T00:00:00.000Z');
    expect(addBillingPeriod(start, { unit: 'WEEK', count: 1 }).toISOString()).toBe(
      '2032-03-07T00:00:00.000Z',
    );
    expect(addBillingPeriod(start, { unit: 'YEAR', count: 1 }).toISOString()).toBe(
      '2033-02-28T00:00:00.000Z',
    );
  });
});
