import { optionError } from '../errors/option-error.js';

// Building an Intl.DateTimeFormat costs far more than using one; pages format dates in a few zones.
const MAX_CACHED_FORMATS = 64;
const formats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(
  locales: string | readonly string[] | undefined,
  timeZone: string,
): Intl.DateTimeFormat {
  const cacheKey = `${String(locales)}|${timeZone}`;
  let format = formats.get(cacheKey);
  if (format === undefined) {
    if (formats.size >= MAX_CACHED_FORMATS) formats.clear();
    format = new Intl.DateTimeFormat(locales === undefined ? undefined : [locales].flat(), {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone,
      // The zone is always said: a subscriber abroad, or a server in another zone, reads it right.
      timeZoneName: 'short',
    });
    formats.set(cacheKey, format);
  }
  return format;
}

/**
 * Formats a date and time (an ISO 8601 timestamp from the service, or a Date) for display in the
 * subscriber's locale and your market's time zone, always naming the zone: "December 1, 2026 at
 * 2:25 AM GMT+1". The shop's pages and the sandbox's checkout use the same, so a date reads alike on
 * both. Throws a DcbError `invalid_option` for a timestamp that is not a date or an unknown zone.
 *
 * @example
 * formatDateTime(entitlement.currentPeriodEnd, 'fr', 'Africa/Tunis'); // '1 décembre 2026 à 02:25 UTC+1'
 */
export function formatDateTime(
  timestamp: string | Date,
  locales?: string | readonly string[],
  timeZone = 'UTC',
): string {
  const date = timestamp instanceof Date ? timestamp : new Date(timestamp);
  if (Number.isNaN(date.getTime())) {
    throw optionError('formatDateTime', 'timestamp', 'must be an ISO 8601 date-time or a Date.');
  }
  try {
    return dateTimeFormat(locales, timeZone).format(date);
  } catch (error) {
    if (error instanceof RangeError) {
      throw optionError(
        'formatDateTime',
        'timeZone',
        `must be an IANA time zone, got ${JSON.stringify(timeZone)}.`,
      );
    }
    throw error;
  }
}
