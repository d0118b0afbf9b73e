import { describe, expect, it } from 'vitest';
import { formatAccessLength as exact } from './format-access-length.js';

// Intl separates number and unit with a no-break space in some languages.
const formatAccessLength = (seconds: number, lang: string) => exact(seconds, lang).replace(/\s/gu, ' ');

describe('formatAccessLength', () => {
  it('names the largest whole unit, in each language', () => {
    expect(formatAccessLength(86_400, 'en')).toBe('1 day');
    expect(formatAccessLength(86_400, 'fr')).toBe('1 jour');
    expect(formatAccessLength(86_400, 'ar')).toMatch(/يوم/);
    expect(formatAccessLength(7 * 86_400, 'en')).toBe('1 week');
    expect(formatAccessLength(2 * 86_400, 'en')).toBe('2 days');
    expect(formatAccessLength(90 * 60, 'en')).toBe('90 minutes');
    expect(formatAccessLength(61, 'fr')).toBe('61 secondes');
  });
});
