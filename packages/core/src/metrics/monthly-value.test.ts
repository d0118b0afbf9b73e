import { describe, expect, it } from 'vitest';
import { monthlyValueOf } from './monthly-value.js';

const offer = (unit: 'DAY' | 'WEEK' | 'MONTH' | 'YEAR', count: number, amount: number) => ({
  type: 'SUBSCRIPTION' as const,
  price: { amount, currency: 'TND' },
  billingPeriod: { unit, count },
});

describe('monthlyValueOf', () => {
  it('turns each billing period into a month: 52/12 weeks, 365/12 days, a twelfth of a year', () => {
    expect(monthlyValueOf(offer('MONTH', 1, 4500))).toBe(4500);
    expect(monthlyValueOf(offer('MONTH', 3, 9000))).toBe(3000);
    expect(monthlyValueOf(offer('YEAR', 1, 12000))).toBe(1000);
    expect(monthlyValueOf(offer('WEEK', 1, 1500))).toBe(6500);
    expect(monthlyValueOf(offer('DAY', 1, 100))).toBe(3042);
  });

  it('has none for what does not renew', () => {
    expect(
      monthlyValueOf({ type: 'CONSUMABLE', price: { amount: 500, currency: 'TND' }, billingPeriod: null }),
    ).toBeUndefined();
  });
});
