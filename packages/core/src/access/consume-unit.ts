import type { Entitlement } from '../schemas/entitlement.js';
import { entitlementError } from './errors.js';

/**
 * Uses one unit of a CONSUMABLE entitlement now (the wall clock) and returns the new record. Shaped
 * to be handed to `store.update` directly, so the check and the write are one atomic step. Pass
 * `consumeUnitAt(kit.now())` (from `@dcbkit/core/store`) instead where the kit's clock is not the wall clock (a sandbox moved
 * in time). Throws a DcbError (`not_found`, `not_consumable`, `revoked`, `no_units_left`).
 *
 * @example
 * await store.update(user.id, 'prod_credits', consumeUnit);
 */
export function consumeUnit(entitlement: Entitlement | undefined): Entitlement {
  return consumeUnitAt(new Date())(entitlement);
}

/**
 * The change that uses one unit at `now`, for `store.update`. When the offer sells time per unit
 * (`unitAccessSeconds`, a day pass), the spent unit gives access from now, or from the end of the
 * access still running (a second pass adds a day, it does not overlap the first), for that long.
 * Pure: a store that runs it again after losing a race adds the time to the record it then reads.
 *
 * @example
 * import { consumeUnitAt } from '@dcbkit/core/store';
 * await kit.store.update(user.id, 'prod_day_pass', consumeUnitAt(kit.now()));
 */
export function consumeUnitAt(now: Date): (entitlement: Entitlement | undefined) => Entitlement {
  return (entitlement) => {
    const held = spendable(entitlement);
    const spent = { ...held, unitsUsed: held.unitsUsed + 1 };
    // `?? null`: a record written before the fields existed, read without the schema.
    const seconds = held.unitAccessSeconds ?? null;
    if (seconds === null) return spent;
    const endsAt = held.unitAccessEndsAt ?? null;
    const from = endsAt === null ? now.getTime() : Math.max(Date.parse(endsAt), now.getTime());
    return { ...spent, unitAccessEndsAt: new Date(from + seconds * 1000).toISOString() };
  };
}

function spendable(entitlement: Entitlement | undefined): Entitlement {
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
  return entitlement;
}
