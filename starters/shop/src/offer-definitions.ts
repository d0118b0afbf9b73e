import type { OfferDefinitionInput } from '@dcbkit/core';

/**
 * Your offers, as configured in the partner console: the API has no offer read, so the shop keeps
 * this copy to show name, price, period and trial before checkout, and the kit uses it to know
 * what each payment grants. These are the embedded sandbox's default offers
 * (offers.test.ts keeps the two equal); replace them with yours when you go live.
 *
 * Their names in each language are in locales/*.json (`offer.<offerUid>`).
 */
export const OFFERS: readonly OfferDefinitionInput[] = [
  {
    offerUid: 'offer_premium_monthly',
    productUid: 'prod_premium',
    name: 'Premium, monthly',
    type: 'SUBSCRIPTION',
    price: { amount: 4500, currency: 'TND' },
    billingPeriod: { unit: 'MONTH', count: 1 },
    trialDays: 7,
    // A returning subscriber has had the trial (the service would refuse it, SUB-108): the kit
    // sells this paid offer of the same product instead.
    onceTrialUsed: 'offer_premium_monthly_paid',
    gracePolicy: { days: 3, accessDuringGrace: true },
  },
  {
    offerUid: 'offer_day_pass',
    productUid: 'prod_day_pass',
    name: 'Day pass',
    type: 'CONSUMABLE',
    price: { amount: 1000, currency: 'TND' },
    // A pass gives access once used, for a day from then (a second one used meanwhile adds a day).
    unitAccessSeconds: 86_400,
  },
  {
    offerUid: 'offer_full_unlock',
    productUid: 'prod_full_unlock',
    name: 'Full unlock',
    type: 'NON_CONSUMABLE',
    price: { amount: 15000, currency: 'TND' },
  },
  {
    offerUid: 'offer_premium_monthly_paid',
    productUid: 'prod_premium',
    name: 'Premium, monthly',
    type: 'SUBSCRIPTION',
    price: { amount: 4500, currency: 'TND' },
    billingPeriod: { unit: 'MONTH', count: 1 },
    gracePolicy: { days: 3, accessDuringGrace: true },
  },
];

/** Your market's time zone: every date on the pages is shown in it, and named. */
export const SHOP_TIME_ZONE = 'Africa/Tunis';

/** The product the premium page needs (requireAccess). */
export const PREMIUM_PRODUCT = 'prod_premium';
