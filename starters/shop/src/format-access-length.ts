const UNITS = [
  { unit: 'week', seconds: 604_800 },
  { unit: 'day', seconds: 86_400 },
  { unit: 'hour', seconds: 3_600 },
  { unit: 'minute', seconds: 60 },
  { unit: 'second', seconds: 1 },
] as const;

/**
 * How long a pass used gives access (an offer's `unitAccessSeconds`), in words of the language:
 * the largest unit that divides it exactly, so a day pass says "1 day" and never "24 hours".
 */
export function formatAccessLength(seconds: number, lang: string): string {
  const { unit, seconds: size } = UNITS.find((candidate) => seconds % candidate.seconds === 0) ?? UNITS[4];
  return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'long' }).format(seconds / size);
}
