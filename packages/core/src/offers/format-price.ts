import { optionError } from '../errors/option-error.js';
import type { Money } from '../schemas/primitives.js';
import { currencyMinorUnits } from './currency-minor-units.js';

type Locales = string | readonly string[] | undefined;

// Building an Intl.NumberFormat costs far more than using one; pages format the same few prices.
const MAX_CACHED_FORMATS = 64;
const formats = new Map<string, Intl.NumberFormat>();

function currencyFormat(locales: Locales, currency: string, decimals: number): Intl.NumberFormat {
  const cacheKey = `${String(locales)}|${currency}`;
  let format = formats.get(cacheKey);
  if (format === undefined) {
    if (formats.size >= MAX_CACHED_FORMATS) formats.clear();
    format = new Intl.NumberFormat(locales === undefined ? undefined : [locales].flat(), {
      style: 'currency',
      currency,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    formats.set(cacheKey, format);
  }
  return format;
}

/**
 * Formats money for display in the subscriber's locale, with the currency's own minor unit:
 * `{ amount: 4500, currency: 'TND' }` is 4.500 TND ("TND 4.500" in English, "4,500 TND" in French,
 * "4.500 د.ت." in Arabic). Exact for any whole amount: no floating-point division.
 *
 * @example
 * formatPrice(offer.price, 'fr'); // '4,500 TND'
 */
export function formatPrice(money: Money, locales?: string | readonly string[]): string {
  if (
    typeof money !== 'object' ||
    money === null ||
    !Number.isSafeInteger(money.amount) ||
    typeof money.currency !== 'string' ||
    !/^[A-Z]{3}$/.test(money.currency)
  ) {
    throw optionError(
      'formatPrice',
      'money',
      'must be { amount: whole minor units, currency: "TND"-style code }.',
    );
  }
  const decimals = currencyMinorUnits(money.currency);
  return currencyFormat(locales, money.currency, decimals).format(toDecimal(money.amount, decimals));
}

/** 4500 with 3 decimals -> "4.500", as a string so that no amount loses precision. */
function toDecimal(amount: number, decimals: number): `${number}` {
  const digits = Math.abs(amount)
    .toString()
    .padStart(decimals + 1, '0');
  const sign = amount < 0 ? '-' : '';
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return (decimals === 0 ? `${sign}${whole}` : `${sign}${whole}.${fraction}`) as `${number}`;
}
