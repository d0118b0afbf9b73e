import { DcbError } from '@dcbkit/core';

/**
 * Why the PostgreSQL store refused an option: a schema or table prefix that is not a plain SQL
 * identifier, a lease or retention out of range. One of dcbkit's errors (`isDcbError(error,
 * 'invalid_option')` holds), with the option's name in `details.option`; thrown at creation,
 * before any SQL runs.
 */
export class StorePostgresError extends DcbError<'invalid_option'> {
  static override readonly kind: string = 'StorePostgresError';
  override readonly name: string = 'StorePostgresError';

  constructor(where: string, option: string, problem: string) {
    super('invalid_option', `${where}: ${option} ${problem}`, { details: { option } });
  }
}
