import type { CodesOf } from './code-groups.js';
import { DcbError } from './dcb-error.js';

/** invalid_env is configFromEnv's alone: it lists every problem at once, never one option. */
type OptionErrorCode = Exclude<CodesOf<'configuration'>, 'invalid_env'>;

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
  code: OptionErrorCode = 'invalid_option',
): DcbError {
  return new DcbError(code, `${where}: ${option} ${problem}`, { details: { option } });
}
