import type { OfferDefinition } from '../../schemas/offer.js';
import { bucketsOf, type MetricsInterval } from '../buckets.js';
import type { LifecycleEndCause, SubscriptionLifecycle } from '../subscription-lifecycle.js';

/** A subscription's life from short dates (`2030-01-05` is its midnight UTC), told by events. */
export function lived(
  subscriptionUid: string,
  accountKey: string,
  times: { trial?: string; paid?: string; ended?: string; cause?: LifecycleEndCause },
  fields: Partial<SubscriptionLifecycle> = {},
): SubscriptionLifecycle {
  const at = (day: string | undefined) =>
    day === undefined ? undefined : { at: `${day}T00:00:00.000Z`, provisional: false };
  return {
    subscriptionUid,
    accountKey,
    productUid: 'prod_premium',
    offerUid: 'offer_trial',
    currency: 'TND',
    monthlyValue: 4500,
    ...(times.trial ? { trialStartedAt: at(times.trial) } : {}),
    ...(times.paid ? { firstPaidAt: at(times.paid) } : {}),
    ...(times.ended ? { endedAt: at(times.ended), endCause: times.cause ?? 'canceled' } : {}),
    ...fields,
  };
}

const subscription = {
  type: 'SUBSCRIPTION',
  productUid: 'prod_premium',
  price: { amount: 4500, currency: 'TND' },
  billingPeriod: { unit: 'MONTH', count: 1 },
  gracePolicy: { days: 3, accessDuringGrace: true },
} as const;

/** The partner's offers: a monthly one with a trial, the same paid, and a pass. */
export const OFFERS = [
  { ...subscription, offerUid: 'offer_trial', trialDays: 7 },
  { ...subscription, offerUid: 'offer_paid', trialDays: 0 },
  {
    type: 'CONSUMABLE',
    offerUid: 'offer_pass',
    productUid: 'prod_pass',
    price: { amount: 500, currency: 'TND' },
    trialDays: 0,
  },
] as unknown as OfferDefinition[];

/** The days of a query's buckets, as the kit asks its store. */
export function daysOfQuery(query: { from: Date; to: Date; interval?: MetricsInterval }) {
  const buckets = bucketsOf(query.from, query.to, query.interval ?? 'month');
  return { from: buckets.startDays[0] as string, to: buckets.endDay };
}
