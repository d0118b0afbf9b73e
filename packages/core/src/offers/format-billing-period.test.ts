import { describe, expect, it } from 'vitest';
import { offer } from '../test-support/fixtures.js';
import { formatBillingPeriod, formatOfferPrice } from './format-billing-period.js';

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ').replace(/[\u200e\u200f\u061c]/g, '');

describe('formatBillingPeriod', () => {
  it.each([
    [{ unit: 'MONTH', count: 1 }, 'per month', 'par mois', 'شهريًا'],
    [{ unit: 'WEEK', count: 1 }, 'per week', 'par semaine', 'أسبوعيًا'],
    [{ unit: 'YEAR', count: 1 }, 'per year', 'par an', 'سنويًا'],
    [{ unit: 'DAY', count: 1 }, 'per day', 'par jour', 'يوميًا'],
    [{ unit: 'MONTH', count: 2 }, 'every 2 months', 'tous les 2 mois', 'كل شهرين'],
    [{ unit: 'WEEK', count: 2 }, 'every 2 weeks', 'toutes les 2 semaines', 'كل أسبوعين'],
    [{ unit: 'MONTH', count: 3 }, 'every 3 months', 'tous les 3 mois', 'كل 3 أشهر'],
    [{ unit: 'DAY', count: 14 }, 'every 14 days', 'tous les 14 jours', 'كل 14 يومًا'],
  ] as const)('%o: %s / %s / %s', (period, en, fr, ar) => {
    expect(formatBillingPeriod(period, 'en')).toBe(en);
    expect(formatBillingPeriod(period, 'fr-TN')).toBe(fr);
    // Arabic locales may write the count in Arabic-Indic digits.
    expect(formatBillingPeriod(period, 'ar').replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x660))).toBe(
      ar,
    );
  });

  it('takes the first requested language it knows, and falls back to English', () => {
    expect(formatBillingPeriod({ unit: 'MONTH', count: 1 }, ['de', 'fr'])).toBe('par mois');
    expect(formatBillingPeriod({ unit: 'MONTH', count: 1 }, 'de')).toBe('per month');
  });

  it('refuses a period that is not one', () => {
    expect(() => formatBillingPeriod({ unit: 'MONTH', count: 0 }, 'en')).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });
});

describe('formatOfferPrice', () => {
  it('shows a subscription with its period and a one-time offer with its price alone', () => {
    expect(plain(formatOfferPrice(offer('off_monthly'), 'en'))).toBe('TND 4.500 per month');
    expect(plain(formatOfferPrice(offer('off_monthly'), 'fr'))).toBe('4,500 TND par mois');
    expect(plain(formatOfferPrice(offer('off_credits'), 'en'))).toBe('TND 2.000');
  });
});
