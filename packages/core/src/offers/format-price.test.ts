import { describe, expect, it } from 'vitest';
import { currencyMinorUnits } from './currency-minor-units.js';
import { formatPrice } from './format-price.js';

/** Locale output carries no-break spaces and bidi marks; compare the visible text. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ').replace(/[\u200e\u200f\u061c]/g, '');

describe('formatPrice', () => {
  it('puts the decimal point where the currency minor unit says: 4500 millimes is 4.500 TND', () => {
    expect(plain(formatPrice({ amount: 4500, currency: 'TND' }, 'en'))).toBe('TND 4.500');
    expect(plain(formatPrice({ amount: 4500, currency: 'TND' }, 'fr'))).toBe('4,500 TND');
    expect(plain(formatPrice({ amount: 4500, currency: 'TND' }, 'ar'))).toMatch(/^(4\.500|٤٫٥٠٠) د\.ت\.$/);
  });

  it('shows no decimals for a currency without a minor unit, two for most', () => {
    expect(plain(formatPrice({ amount: 1200, currency: 'JPY' }, 'en'))).toBe('¥1,200');
    expect(plain(formatPrice({ amount: 1250, currency: 'EUR' }, 'en'))).toBe('€12.50');
    expect(plain(formatPrice({ amount: 1250, currency: 'EUR' }, 'fr'))).toBe('12,50 €');
    expect(plain(formatPrice({ amount: 1250, currency: 'EUR' }, 'ar'))).toMatch(/^(12\.50|١٢٫٥٠) €$/);
  });

  it('is exact for small, negative and very large amounts', () => {
    expect(plain(formatPrice({ amount: 5, currency: 'TND' }, 'en'))).toBe('TND 0.005');
    expect(plain(formatPrice({ amount: -5, currency: 'TND' }, 'en'))).toBe('-TND 0.005');
    expect(plain(formatPrice({ amount: 9_007_199_254_740_991, currency: 'TND' }, 'en'))).toBe(
      'TND 9,007,199,254,740.991',
    );
  });

  it('refuses what is not money in minor units', () => {
    expect(() => formatPrice({ amount: 4.5, currency: 'TND' }, 'en')).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    expect(() => formatPrice({ amount: 4500, currency: 'tnd' }, 'en')).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });
});

describe('currencyMinorUnits', () => {
  it('follows ISO 4217, not the locale', () => {
    expect([currencyMinorUnits('TND'), currencyMinorUnits('JPY'), currencyMinorUnits('EUR')]).toEqual([
      3, 0, 2,
    ]);
    expect([currencyMinorUnits('KWD'), currencyMinorUnits('XOF'), currencyMinorUnits('MAD')]).toEqual([
      3, 0, 2,
    ]);
  });
});
