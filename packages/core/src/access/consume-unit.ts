import type { Entitlement } from '../schemas/entitlement.js';
import { entitlementError } from './errors.js';

/**
 * Uses one unit of a CONSUMABLE entitlement and returns the new record. Shaped to be handed to
 * `store.update` directly, so the check and the write are one atomic step. Throws a DcbError
 * (`not_found`, `not_consumable`, `revoked`, `no_units_left`).
 *
 * @example
 * await store.update(user.id, 'prod_credits', consumeUnit);
 */
export function consumeUnit(entitlement: Entitlement | undefined): Entitlement {
  if (entitlement === undefined) {
    throw entitlementError('entitlement_not_found', 'No entitlement for this account and product.');
  }
  if (entitlement.type !== 'CONSUMABLE') {
    throw entitlementError(
      'not_consumable',
      `${entitlement.productUid} is ${entitlement.type}, not CONSUMABLE.`,
    );
  }
  if (entitlement.status === 'REVOKED') {
    throw entitlementError('entitlement_revoked', `Access to ${entitlement.productUid} has been revoked.`);
  }
  if (entitlement.unitsUsed >= entitlement.unitsBought) {
    throw entitlementError('no_units_left', `Every unit of ${entitlement.productUid} has been used.`);
  }
  return { ...entitlement, unitsUsed: entitlement.unitsUsed + 1 };
}
