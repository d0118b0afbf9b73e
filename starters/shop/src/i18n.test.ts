import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, pickLanguage, translator } from './i18n.js';

const keysOf = (language: string) =>
  Object.keys(
    JSON.parse(readFileSync(new URL(`../locales/${language}.json`, import.meta.url), 'utf8')),
  ).sort();

describe('the shop in three languages', () => {
  it('has every message in every language', () => {
    for (const language of LANGUAGES) expect(keysOf(language)).toEqual(keysOf('en'));
  });

  it('takes the chosen language, else the best of Accept-Language, else English', () => {
    expect(pickLanguage('ar', 'fr')).toBe('ar');
    expect(pickLanguage(undefined, 'de-DE, fr-TN;q=0.8, en;q=0.5')).toBe('fr');
    expect(pickLanguage(undefined, 'en;q=0.2, ar;q=0.9')).toBe('ar');
    expect(pickLanguage('xx', 'de')).toBe('en');
    expect(pickLanguage(undefined, undefined)).toBe('en');
  });

  it('fills placeholders', () => {
    expect(translator('fr')('offers.buy', { offer: 'Pass journée' })).toBe('Acheter Pass journée');
  });
});
