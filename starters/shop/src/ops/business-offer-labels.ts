import { formatOfferPrice, type OfferDefinition } from '@dcbkit/core';
import type { Language, Translate } from '../i18n.js';

/**
 * The offer filter's choices. An offer's name alone does not tell two offers of one product apart
 * (the shop's premium plan with its trial and the same plan without, for a returning subscriber,
 * are both "Premium, monthly"), so each label carries the price, the billing period and the trial:
 * "Premium, monthly — TND 4.500 per month, 7-day free trial". Two offers still alike get their uid.
 */
export function offerFilterChoices(
  offers: readonly OfferDefinition[],
  words: { t: Translate; lang: Language; offerName: (offer: OfferDefinition) => string },
): Array<{ value: string; label: string }> {
  const { t, lang } = words;
  // Intl words a count of days in the language, Arabic's plural forms included.
  const days = new Intl.NumberFormat(lang, { style: 'unit', unit: 'day', unitDisplay: 'long' });
  const labels = offers.map((offer) => {
    const values = { name: words.offerName(offer), price: formatOfferPrice(offer, lang) };
    return offer.trialDays
      ? t('ops.business.offerWithTrial', { ...values, trial: days.format(offer.trialDays) })
      : t('ops.business.offerLabel', values);
  });
  return offers.map((offer, index) => {
    const label = labels[index] as string;
    const alike = labels.filter((other) => other === label).length > 1;
    return { value: offer.offerUid, label: alike ? `${label} (${offer.offerUid})` : label };
  });
}
