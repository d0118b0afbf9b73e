import { readFileSync } from 'node:fs';

/** The shop's languages. Arabic is written right to left. */
export const LANGUAGES = ['en', 'fr', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's own name, for the switcher. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  fr: 'Français',
  ar: 'العربية',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function directionOf(language: Language): 'ltr' | 'rtl' {
  return language === 'ar' ? 'rtl' : 'ltr';
}

type Messages = Readonly<Record<string, string>>;

// locales/<language>.json: flat "key": "text" files, with {name} placeholders. Plain JSON so a
// translator (or another starter) can take them as they are.
const MESSAGES: Readonly<Record<Language, Messages>> = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    JSON.parse(readFileSync(new URL(`../locales/${language}.json`, import.meta.url), 'utf8')) as Messages,
  ]),
) as Record<Language, Messages>;

/** Looks up a message and fills its {placeholders}. A missing key shows as itself, so it is seen and fixed. */
export type Translate = (key: string, values?: Readonly<Record<string, string | number>>) => string;

export function translator(language: Language): Translate {
  const messages = MESSAGES[language];
  return (key, values = {}) => {
    const text = messages[key] ?? MESSAGES.en[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
      Object.hasOwn(values, name) ? String(values[name]) : placeholder,
    );
  };
}

/**
 * The language of a request: the one the visitor chose with the switcher (kept in the session),
 * else the best of the browser's Accept-Language, else English.
 */
export function pickLanguage(chosen: unknown, acceptLanguage: string | undefined): Language {
  if (isLanguage(chosen)) return chosen;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { language: tag.trim().toLowerCase().split('-')[0] ?? '', q: q ? Number(q.slice(2)) : 1 };
    })
    .filter(({ q }) => Number.isFinite(q) && q > 0)
    .sort((a, b) => b.q - a.q);
  const best = ranked.find(({ language }) => isLanguage(language))?.language;
  return isLanguage(best) ? best : 'en';
}
