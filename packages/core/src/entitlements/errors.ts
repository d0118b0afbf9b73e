/**
 * Why an entitlement operation was refused. Stable: branch on it.
 * - `not_found`: there is no entitlement for this account and product.
 * - `not_consumable`: only CONSUMABLE entitlements have units.
 * - `revoked`: access has ended.
 * - `no_units_left`: every unit bought has been used.
 */
export type EntitlementErrorCode = 'not_found' | 'not_consumable' | 'revoked' | 'no_units_left';

export class EntitlementError extends Error {
  override readonly name = 'EntitlementError';
  readonly code: EntitlementErrorCode;

  constructor(code: EntitlementErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
