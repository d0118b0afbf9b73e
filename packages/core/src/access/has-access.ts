import type { Entitlement } from '../schemas/entitlement.js';

/**
 * Whether the entitlement gives access now. Subscriptions: TRIALING and ACTIVE until an event
 * ends them, PRE_CANCELED until `cancelAt` (else the period end), IN_GRACE until `graceEndsAt` (never when the offer
 * gives no access during grace). Consumables: while a unit is left, or, when the offer sells time
 * per unit (`unitAccessSeconds`, a day pass), once a unit is spent until `unitAccessEndsAt`.
 * Non-consumables: for good.
 *
 * @example
 * const entitlement = await store.get(user.id, 'prod_premium');
 * if (!hasAccess(entitlement)) return res.redirect('/pricing');
 */
export function hasAccess(entitlement: Entitlement | undefined, now: Date = new Date()): boolean {
  if (entitlement === undefined) return false;
  if (entitlement.type === 'CONSUMABLE' && entitlement.status !== 'REVOKED') {
    return sellsTime(entitlement) ? spentUnitRuns(entitlement, now) : availableUnits(entitlement) > 0;
  }
  switch (entitlement.status) {
    case 'TRIALING':
    case 'ACTIVE':
      return true;
    case 'PRE_CANCELED': {
      // A cancellation without a date ends with the period (the latest period end any event told).
      const endsAt = entitlement.cancelAt ?? entitlement.currentPeriodEnd;
      return endsAt === null || now.getTime() < Date.parse(endsAt);
    }
    case 'IN_GRACE':
      return entitlement.graceEndsAt !== null && now.getTime() < Date.parse(entitlement.graceEndsAt);
    case 'REVOKED':
      return false;
  }
}

/** CONSUMABLE: units bought and not yet used (0 for other types). */
export function availableUnits(entitlement: Entitlement | undefined): number {
  if (entitlement === undefined || entitlement.type !== 'CONSUMABLE') return 0;
  return Math.max(0, entitlement.unitsBought - entitlement.unitsUsed);
}

/** A CONSUMABLE whose units give access for a time once spent (a day pass), not while held. */
export function sellsTime(entitlement: Entitlement): boolean {
  // `?? null`: a record written before the field existed, read without the schema.
  return entitlement.type === 'CONSUMABLE' && (entitlement.unitAccessSeconds ?? null) !== null;
}

function spentUnitRuns(entitlement: Entitlement, now: Date): boolean {
  const endsAt = entitlement.unitAccessEndsAt ?? null;
  return endsAt !== null && now.getTime() < Date.parse(endsAt);
}
