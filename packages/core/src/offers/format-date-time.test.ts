import { describe, expect, it } from 'vitest';
import { isDcbError } from '../errors/dcb-error.js';
import { formatDateTime } from './format-date-time.js';

const AT = '2026-12-01T01:25:00.000Z';
const plain = (text: string) => text.replace(/[\u200e\u200f]/g, '').replace(/[\u00a0\u202f]/g, ' ');

describe('formatDateTime', () => {
  it('says the date, the time and the zone, in the language and zone asked', () => {
    expect(plain(formatDateTime(AT, 'en'))).toBe('December 1, 2026 at 1:25 AM UTC');
    expect(plain(formatDateTime(AT, 'fr', 'Africa/Tunis'))).toBe('1 décembre 2026 à 02:25 UTC+1');
    expect(plain(formatDateTime(new Date(AT), 'en', 'Africa/Tunis'))).toBe(
      'December 1, 2026 at 2:25 AM GMT+1',
    );
    expect(formatDateTime(AT, 'ar', 'Africa/Tunis')).toMatch(/2026/);
  });

  it('refuses what is not a date, or not a zone, with a typed error', () => {
    for (const call of [() => formatDateTime('soon', 'en'), () => formatDateTime(AT, 'en', 'Mars/Olympus')]) {
      let thrown: unknown;
      try {
        call();
      } catch (error) {
        thrown = error;
      }
      expect(isDcbError(thrown, 'invalid_option')).toBe(true);
    }
  });
});
