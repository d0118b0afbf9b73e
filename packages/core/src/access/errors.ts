import type { CodesOf } from '../errors/code-groups.js';
import { DcbError } from '../errors/dcb-error.js';

/**
 * Why an entitlement operation was refused: the `entitlement` group of DCB_ERROR_CODES. Stable:
 * branch on it.
 * - `entitlement_not_found`: there is no entitlement for this account and product.
 * - `not_consumable`: only CONSUMABLE entitlements have units.
 * - `entitlement_revoked`: access has ended.
 * - `no_units_left`: every unit bought has been used.
 */
export type EntitlementErrorCode = CodesOf<'entitlement'>;

// No httpStatus: the table's 503 for entitlement_not_found is the webhook handler's answer, not
// something consumeUnit's caller is told to answer.
export function entitlementError(
  code: EntitlementErrorCode,
  message: string,
): DcbError<EntitlementErrorCode> {
  return new DcbError(code, message);
}
