import type { OfferDefinition } from '../schemas/offer.js';

/**
 * How many of a billing period's units make a month, for the recurring revenue per month. Months
 * and years are exact, as ChartMogul counts them (the price divided by the months it pays for); a
 * week is 52 / 12 of a month (4.33, Paddle's factor) and a day 365 / 12 (30.42: the average month
 * of a year, where Paddle's 30 would lose five days a year).
 */
const PERIODS_PER_MONTH = {
  DAY: 365 / 12,
  WEEK: 52 / 12,
  MONTH: 1,
  YEAR: 1 / 12,
} as const;

/**
 * A subscription offer's price as a month's worth, in minor units of its currency, rounded to the
 * nearest unit (a weekly 1,500 is 6,500 a month; a daily 100 is 3,042); undefined for an offer
 * that does not renew. The free trial is not in it: a trial is worth nothing until it converts.
 */
export function monthlyValueOf(
  offer: Pick<OfferDefinition, 'type' | 'price' | 'billingPeriod'>,
): number | undefined {
  const period = offer.billingPeriod;
  if (offer.type !== 'SUBSCRIPTION' || !period || period.count <= 0) return undefined;
  return Math.round((offer.price.amount * PERIODS_PER_MONTH[period.unit]) / period.count);
}
