import { DcbError } from './dcb-error.js';

/**
 * How every function of dcbkit refuses its options: a DcbError with code `invalid_option` (or a
 * more precise configuration code), naming the option, thrown before anything starts.
 *
 * @example
 * throw optionError('memoryLedger', 'max', 'must be a whole number >= 1');
 */
export function optionError(
  where: string,
  option: string,
  problem: string,
  code: 'invalid_option' | 'environment_mismatch' | 'unknown_client_id_prefix' = 'invalid_option',
): DcbError {
  return new DcbError(code, `${where}: ${option} ${problem}`, { details: { option } });
}
