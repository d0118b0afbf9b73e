import { optionError } from '../errors/option-error.js';
import type { BillingPeriod, BillingPeriodUnit, OfferDefinition } from '../schemas/offer.js';
import { formatPrice } from './format-price.js';

type Locales = string | readonly string[] | undefined;

interface PeriodWording {
  /** count 1: "per month". */
  single: Readonly<Record<BillingPeriodUnit, string>>;
  /** count > 1: "every 3 months"; `n` is the count already in the locale's digits. */
  several: (n: string, count: number, unit: BillingPeriodUnit) => string;
}

const ENGLISH: PeriodWording = {
  single: { DAY: 'per day', WEEK: 'per week', MONTH: 'per month', YEAR: 'per year' },
  several: (n, _count, unit) =>
    `every ${n} ${{ DAY: 'days', WEEK: 'weeks', MONTH: 'months', YEAR: 'years' }[unit]}`,
};

const FRENCH: PeriodWording = {
  single: { DAY: 'par jour', WEEK: 'par semaine', MONTH: 'par mois', YEAR: 'par an' },
  // "semaine" is feminine: toutes les 2 semaines, tous les 3 mois.
  several: (n, _count, unit) =>
    unit === 'WEEK'
      ? `toutes les ${n} semaines`
      : `tous les ${n} ${{ DAY: 'jours', MONTH: 'mois', YEAR: 'ans' }[unit]}`,
};

// Arabic counts its nouns: a dual form for 2, a plural for 3 to 10, an accusative singular for 11 to 99.
const ARABIC_DUAL = { DAY: 'يومين', WEEK: 'أسبوعين', MONTH: 'شهرين', YEAR: 'سنتين' } as const;
const ARABIC_PLURAL = { DAY: 'أيام', WEEK: 'أسابيع', MONTH: 'أشهر', YEAR: 'سنوات' } as const;
const ARABIC_ACCUSATIVE = { DAY: 'يومًا', WEEK: 'أسبوعًا', MONTH: 'شهرًا', YEAR: 'سنة' } as const;
const ARABIC_SINGULAR = { DAY: 'يوم', WEEK: 'أسبوع', MONTH: 'شهر', YEAR: 'سنة' } as const;

const ARABIC: PeriodWording = {
  single: { DAY: 'يوميًا', WEEK: 'أسبوعيًا', MONTH: 'شهريًا', YEAR: 'سنويًا' },
  several: (n, count, unit) => {
    if (count === 2) return `كل ${ARABIC_DUAL[unit]}`;
    const tens = count % 100;
    if (tens >= 3 && tens <= 10) return `كل ${n} ${ARABIC_PLURAL[unit]}`;
    if (tens >= 11) return `كل ${n} ${ARABIC_ACCUSATIVE[unit]}`;
    return `كل ${n} ${ARABIC_SINGULAR[unit]}`;
  },
};

const WORDINGS: Readonly<Record<string, PeriodWording>> = { en: ENGLISH, fr: FRENCH, ar: ARABIC };

/** The first requested locale whose language dcbkit has words for, else English. */
function pickLanguage(locales: Locales): { language: string; locale: string | undefined } {
  const requested =
    locales === undefined ? [new Intl.NumberFormat().resolvedOptions().locale] : [locales].flat();
  for (const locale of requested) {
    const language = new Intl.Locale(locale).language;
    if (Object.hasOwn(WORDINGS, language)) return { language, locale };
  }
  return { language: 'en', locale: 'en' };
}

/**
 * How often a subscription renews, for display: "per month", "every 3 months"; "par mois",
 * "toutes les 2 semaines"; "شهريًا", "كل 3 أشهر". English, French and Arabic; other languages get English.
 *
 * @example
 * formatBillingPeriod({ unit: 'MONTH', count: 1 }, 'fr'); // 'par mois'
 */
export function formatBillingPeriod(period: BillingPeriod, locales?: string | readonly string[]): string {
  if (
    !Number.isSafeInteger(period.count) ||
    period.count < 1 ||
    !Object.hasOwn(ENGLISH.single, period.unit)
  ) {
    throw optionError(
      'formatBillingPeriod',
      'period',
      'must be { unit: DAY|WEEK|MONTH|YEAR, count: a whole number >= 1 }.',
    );
  }
  const { language, locale } = pickLanguage(locales);
  const wording = WORDINGS[language] ?? ENGLISH;
  if (period.count === 1) return wording.single[period.unit];
  return wording.several(new Intl.NumberFormat(locale).format(period.count), period.count, period.unit);
}

/**
 * What a subscriber sees before checkout: the price, and for a subscription its billing period.
 *
 * @example
 * formatOfferPrice(offers.get('off_premium_monthly'), 'en'); // 'TND 4.500 per month'
 */
export function formatOfferPrice(offer: OfferDefinition, locales?: string | readonly string[]): string {
  const price = formatPrice(offer.price, locales);
  return offer.billingPeriod ? `${price} ${formatBillingPeriod(offer.billingPeriod, locales)}` : price;
}
