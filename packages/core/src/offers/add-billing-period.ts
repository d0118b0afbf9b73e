import type { BillingPeriod } from '../schemas/offer.js';

const DAY_MS = 86_400_000;

/**
 * `from` plus one billing period, in UTC calendar terms: a month from 31 January ends on the last
 * day of February, as the service renews. (The sandbox keeps its own copy on purpose: it is the
 * oracle the kit's numbers are proven against, so it shares none of the kit's arithmetic.)
 */
export function addBillingPeriod(from: Date, period: BillingPeriod): Date {
  switch (period.unit) {
    case 'DAY':
      return new Date(from.getTime() + period.count * DAY_MS);
    case 'WEEK':
      return new Date(from.getTime() + 7 * period.count * DAY_MS);
    case 'MONTH':
      return addMonths(from, period.count);
    case 'YEAR':
      return addMonths(from, 12 * period.count);
  }
}

function addMonths(from: Date, months: number): Date {
  const target = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  target.setUTCHours(
    from.getUTCHours(),
    from.getUTCMinutes(),
    from.getUTCSeconds(),
    from.getUTCMilliseconds(),
  );
  return target;
}
