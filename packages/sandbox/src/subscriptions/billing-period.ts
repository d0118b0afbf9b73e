import type { BillingPeriod } from '../shared/service-types.js';

const DAY_MS = 86_400_000;

/** `from` plus a number of days. */
export function addDays(from: Date, days: number): Date {
  return new Date(from.getTime() + days * DAY_MS);
}

/**
 * `from` plus one billing period, in UTC calendar terms: a month from 31 January is the last day of
 * February, not 3 March.
 */
export function addBillingPeriod(from: Date, period: BillingPeriod): Date {
  switch (period.unit) {
    case 'DAY':
      return addDays(from, period.count);
    case 'WEEK':
      return addDays(from, 7 * period.count);
    case 'MONTH':
      return addMonths(from, period.count);
    case 'YEAR':
      return addMonths(from, 12 * period.count);
  }
}

function addMonths(from: Date, months: number): Date {
  const target = new Date(from.getTime());
  const day = from.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}
