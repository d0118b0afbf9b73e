import { defineOffers, type OfferDefinition } from '@dcbkit/core';
import { describe, expect, it } from 'vitest';
import { type Language, translator } from '../i18n.js';
import { OFFERS } from '../offer-definitions.js';
import { offerFilterChoices } from './business-offer-labels.js';

const offers = defineOffers(OFFERS).list;
const wordsIn = (lang: Language) => ({
  t: translator(lang),
  lang,
  offerName: (offer: OfferDefinition) => offer.name,
});
/** The label, its spaces plain: Intl puts a no-break space between a currency and its amount. */
const labelOf = (lang: Language, offerUid: string, list = offers) =>
  offerFilterChoices(list, wordsIn(lang))
    .find((choice) => choice.value === offerUid)
    ?.label.replace(/\s/g, ' ');

describe('the offer filter’s labels', () => {
  it('tell two offers of one product apart by their trial, with price and period, in each language', () => {
    expect(labelOf('en', 'offer_premium_monthly')).toBe(
      'Premium, monthly — TND 4.500 per month, free trial of 7 days',
    );
    expect(labelOf('en', 'offer_premium_monthly_paid')).toBe('Premium, monthly — TND 4.500 per month');
    expect(labelOf('fr', 'offer_premium_monthly')).toMatch(
      /^Premium, monthly — 4,500 TND par mois, essai gratuit de 7 jours$/,
    );
    expect(labelOf('ar', 'offer_premium_monthly')).toContain('تجربة مجانية لمدة');
  });

  it('add the uid when price, period and trial are alike too', () => {
    const twin = { ...(offers[2] as OfferDefinition), offerUid: 'offer_full_unlock_twin' };
    expect(labelOf('en', 'offer_full_unlock_twin', [...offers, twin])).toBe(
      'Full unlock — TND 15.000 (offer_full_unlock_twin)',
    );
  });
});
