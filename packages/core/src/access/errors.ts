import { DcbError } from '../errors/dcb-error.js';

/**
 * Why an entitlement operation was refused. Stable: branch on it.
 * - `entitlement_not_found`: there is no entitlement for this account and product.
 * - `not_consumable`: only CONSUMABLE entitlements have units.
 * - `entitlement_revoked`: access has ended.
 * - `no_units_left`: every unit bought has been used.
 */
export type EntitlementErrorCode =
  | 'entitlement_not_found'
  | 'not_consumable'
  | 'entitlement_revoked'
  | 'no_units_left';

export function entitlementError(
  code: EntitlementErrorCode,
  message: string,
): DcbError<EntitlementErrorCode> {
  return new DcbError(code, message);
}
