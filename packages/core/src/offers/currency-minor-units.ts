/**
 * ISO 4217 exponents that differ from 2. The service counts money in these minor units (TND in
 * millimes), so this table, not the locale's display habit, says where the decimal point goes.
 */
const EXPONENTS: Readonly<Record<string, number>> = {
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};

/**
 * How many decimals the currency's minor unit has: 3 for TND (1 TND = 1000 millimes), 0 for JPY, 2 for most.
 *
 * @example
 * currencyMinorUnits('TND'); // 3
 */
export function currencyMinorUnits(currency: string): number {
  return EXPONENTS[currency] ?? 2;
}
