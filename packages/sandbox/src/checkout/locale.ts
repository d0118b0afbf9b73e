/** The checkout's languages. Arabic is written right to left. */
export const LOCALES = ['en', 'fr', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * The locale to format prices and dates with: the language tag itself, as the starters' pages do,
 * so a price reads the same on the shop and on the checkout (core's formatPrice for both).
 */
export const FORMAT_LOCALE: Record<Locale, string> = { en: 'en', fr: 'fr', ar: 'ar' };

export function directionOf(locale: Locale): 'ltr' | 'rtl' {
  return locale === 'ar' ? 'rtl' : 'ltr';
}

/**
 * The best of en/fr/ar for an Accept-Language header, by quality then order; English when none
 * matches. `fr-TN;q=0.8, ar;q=0.9` gives Arabic.
 */
export function negotiateLocale(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .slice(0, 32)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const quality = params.map((param) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param)?.[1]).find(Boolean);
      const q = quality === undefined ? 1 : Number(quality);
      return { language: tag.trim().toLowerCase().split('-')[0] ?? '', q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of ranked) {
    if ((LOCALES as readonly string[]).includes(entry.language)) return entry.language as Locale;
  }
  return 'en';
}
