import type { Entitlement } from '../schemas/entitlement.js';
import { availableUnits, hasAccess, sellsTime } from './has-access.js';

/**
 * Why an account has access to a product now, or why not, as a code a page can put in words
 * (`kit.explain`, the starters' operations view):
 * - `no_entitlement`: no payment of this account for the product was ever applied;
 * - `active`: access until an event ends it;
 * - `trialing`: a free trial, access until an event ends it; nothing is charged before `until`,
 *   the trial's end, when the first charge is due (`firstChargeAt`);
 * - `canceling`: a cancellation at `until` (PRE_CANCELED), access until then;
 * - `in_grace`: a renewal not collected yet, access until `until` as the offer's grace allows;
 * - `grace_without_access`: a renewal not collected, and the offer gives no access during grace;
 * - `ended`: canceled or in grace, and `until` has passed;
 * - `revoked`: revoked, suspended, canceled, expired or failed (by `lastEventName`);
 * - `units_left`, `no_units_left`: a CONSUMABLE's balance (`units`); for one that sells time per
 *   unit (a day pass), `no_units_left` also says when the last spent unit's access ended (`until`);
 * - `unit_in_use`: a unit spent of a CONSUMABLE that sells time, access until `until` (`units` left);
 * - `unit_unused`: a CONSUMABLE that sells time with units left and none spent running: no access
 *   until one is spent (`until`: when the last one's access ended, null before any).
 */
export type AccessReasonCode =
  | 'no_entitlement'
  | 'active'
  | 'trialing'
  | 'canceling'
  | 'in_grace'
  | 'grace_without_access'
  | 'ended'
  | 'revoked'
  | 'units_left'
  | 'no_units_left'
  | 'unit_in_use'
  | 'unit_unused';

export interface AccessReason {
  readonly code: AccessReasonCode;
  readonly hasAccess: boolean;
  /**
   * When access ends (canceling, in grace, a unit in use), ended (ended, a unit's time), or the
   * free trial ends (trialing), as the entitlement says.
   */
  readonly until: string | null;
  /**
   * Trialing: when the trial ends and the first charge is due (nothing is charged before);
   * null otherwise, and for a trial cancelled at its end (no charge comes).
   */
  readonly firstChargeAt: string | null;
  /** CONSUMABLE: units left. */
  readonly units: number | null;
  /** The event that set the status, and when it happened. */
  readonly lastEventName: string | null;
  readonly lastEventAt: string | null;
}

/** The reason behind `hasAccess(entitlement, now)`: the same rule, said as a code. */
export function accessReason(entitlement: Entitlement | undefined, now: Date): AccessReason {
  const access = hasAccess(entitlement, now);
  if (entitlement === undefined) return reason('no_entitlement', access, null, null, undefined);
  if (entitlement.type === 'CONSUMABLE' && entitlement.status !== 'REVOKED') {
    const units = availableUnits(entitlement);
    if (sellsTime(entitlement)) {
      const code = access ? 'unit_in_use' : units > 0 ? 'unit_unused' : 'no_units_left';
      return reason(code, access, entitlement.unitAccessEndsAt ?? null, units, entitlement);
    }
    return reason(units > 0 ? 'units_left' : 'no_units_left', access, null, units, entitlement);
  }
  switch (entitlement.status) {
    case 'ACTIVE':
      return reason('active', access, null, null, entitlement);
    case 'TRIALING':
      return {
        ...reason('trialing', access, entitlement.trialEndsAt, null, entitlement),
        firstChargeAt: entitlement.trialEndsAt,
      };
    case 'PRE_CANCELED': {
      const until = entitlement.cancelAt ?? entitlement.currentPeriodEnd;
      return reason(access ? 'canceling' : 'ended', access, until, null, entitlement);
    }
    case 'IN_GRACE': {
      if (entitlement.graceEndsAt === null)
        return reason('grace_without_access', access, null, null, entitlement);
      return reason(access ? 'in_grace' : 'ended', access, entitlement.graceEndsAt, null, entitlement);
    }
    case 'REVOKED':
      return reason('revoked', access, null, null, entitlement);
  }
}

function reason(
  code: AccessReasonCode,
  hasAccess: boolean,
  until: string | null,
  units: number | null,
  entitlement: Entitlement | undefined,
): AccessReason {
  return {
    code,
    hasAccess,
    until,
    firstChargeAt: null,
    units,
    lastEventName: entitlement?.lastEventName ?? null,
    lastEventAt: entitlement?.lastEventAt ?? null,
  };
}
