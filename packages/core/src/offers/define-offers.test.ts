import { describe, expect, it } from 'vitest';
import { DcbError } from '../errors/dcb-error.js';
import { defineOffers } from './define-offers.js';

const monthly = {
  offerUid: 'off_monthly',
  productUid: 'prod_premium',
  name: 'Premium',
  type: 'SUBSCRIPTION',
  price: { amount: 4500, currency: 'TND' },
  billingPeriod: { unit: 'MONTH', count: 1 },
} as const;

function refusal(run: () => unknown): DcbError {
  try {
    run();
  } catch (error) {
    if (error instanceof DcbError) return error;
    throw error;
  }
  throw new Error('expected a DcbError');
}

describe('defineOffers', () => {
  it('validates, fills defaults and looks offers up by uid and product', () => {
    const yearly = { ...monthly, offerUid: 'off_yearly', billingPeriod: { unit: 'YEAR', count: 1 } } as const;
    const offers = defineOffers([monthly, yearly]);
    expect(offers.get('off_monthly')).toMatchObject({
      trialDays: 0,
      gracePolicy: { days: 0, accessDuringGrace: false },
    });
    expect(offers.get('off_unknown')).toBeUndefined();
    expect(offers.forProduct('prod_premium').map((offer) => offer.offerUid)).toEqual([
      'off_monthly',
      'off_yearly',
    ]);
    expect(offers.list).toHaveLength(2);
  });

  it('refuses an invalid offer, saying which and where', () => {
    const error = refusal(() =>
      defineOffers([monthly, { ...monthly, offerUid: 'off_bad', billingPeriod: undefined }]),
    );
    expect(error.code).toBe('invalid_offer');
    expect(error.details.index).toBe(1);
    expect(error.message).toMatch(/billingPeriod/);
  });

  it('refuses two offers with one uid', () => {
    expect(refusal(() => defineOffers([monthly, monthly])).code).toBe('duplicate_offer');
  });

  it('refuses offers of one product that disagree on the type', () => {
    const pass = {
      offerUid: 'off_pass',
      productUid: 'prod_premium',
      name: 'Pass',
      type: 'CONSUMABLE',
      price: monthly.price,
    } as const;
    expect(refusal(() => defineOffers([monthly, pass])).code).toBe('mixed_product_types');
  });

  it('takes how long a spent unit gives access for consumables only, one length per product', () => {
    const day = {
      offerUid: 'off_day',
      productUid: 'prod_day_pass',
      name: 'Day pass',
      type: 'CONSUMABLE' as const,
      price: { amount: 1000, currency: 'TND' },
      unitAccessSeconds: 86_400,
    };
    expect(defineOffers([day]).get('off_day')?.unitAccessSeconds).toBe(86_400);
    expect(defineOffers([day, { ...day, offerUid: 'off_day_promo' }]).list).toHaveLength(2);
    const week = { ...day, offerUid: 'off_week', unitAccessSeconds: 604_800 };
    const refused = refusal(() => defineOffers([day, week]));
    expect(refused.code).toBe('mixed_product_types');
    expect(refused.message).toMatch(/off_week gives unitAccessSeconds 604800 per unit spent but off_day/);
    const untimed = { ...day, offerUid: 'off_credits', unitAccessSeconds: undefined };
    expect(refusal(() => defineOffers([day, untimed])).code).toBe('mixed_product_types');
    expect(refusal(() => defineOffers([{ ...monthly, unitAccessSeconds: 60 }])).message).toMatch(
      /only CONSUMABLE offers have units to spend/,
    );
    expect(refusal(() => defineOffers([{ ...day, unitAccessSeconds: 0 }])).code).toBe('invalid_offer');
  });

  it('checks what onceTrialUsed names: an offer of the list, the same product, no trial', () => {
    const trial = {
      offerUid: 'off_trial',
      productUid: 'prod_premium',
      name: 'Premium',
      type: 'SUBSCRIPTION' as const,
      price: { amount: 4500, currency: 'TND' },
      billingPeriod: { unit: 'MONTH' as const, count: 1 },
      trialDays: 7,
      onceTrialUsed: 'off_paid',
    };
    const paid = { ...trial, offerUid: 'off_paid', trialDays: 0, onceTrialUsed: undefined };
    const offers = defineOffers([trial, paid]);
    expect(offers.listed.map((offer) => offer.offerUid)).toEqual(['off_trial']);
    expect(offers.list).toHaveLength(2);
    for (const [list, problem] of [
      [[trial], /is not in the list/],
      [[trial, { ...paid, productUid: 'prod_other' }], /sells prod_other, not prod_premium/],
      [[trial, { ...paid, trialDays: 3 }], /has a trial of its own/],
    ] as const) {
      expect(() => defineOffers(list)).toThrow(
        expect.objectContaining({ code: 'invalid_offer', message: expect.stringMatching(problem) }),
      );
    }
    // An offer with no trial sells itself to everyone: its onceTrialUsed is never used.
    expect(defineOffers([{ ...trial, trialDays: 0, onceTrialUsed: 'off_unknown' }]).listed).toHaveLength(1);
  });
});
