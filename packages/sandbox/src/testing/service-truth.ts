import type { SubscriptionStatus } from '@dcbkit/core';
import type { GracePolicy, OfferType } from '../shared/service-types.js';

/**
 * What the service says an account may use now, and why in words for the evidence. Derived from
 * the spec's statuses here rather than from core's rules, so the check judges the kit by the
 * service and not by itself.
 */
export interface ServiceTruth {
  access: boolean;
  says: string;
}

/**
 * A subscription's status as the service reads it (undefined: the account never subscribed). The
 * spec: access continues while TRIALING, ACTIVE and PRE_CANCELED (until `cancelAt`), per the
 * offer's grace policy while IN_GRACE, and has ended once SUSPENDED, CANCELED or EXPIRED.
 */
export function subscriptionTruth(status: SubscriptionStatus | undefined, grace: GracePolicy): ServiceTruth {
  switch (status) {
    case undefined:
      return { access: false, says: 'nothing bought' };
    case 'TRIALING':
    case 'ACTIVE':
    case 'PRE_CANCELED':
      return { access: true, says: status };
    case 'IN_GRACE':
      return {
        access: grace.accessDuringGrace,
        says: `IN_GRACE, ${grace.accessDuringGrace ? 'with' : 'without'} access during grace`,
      };
    default:
      return { access: false, says: status };
  }
}

/**
 * A one-time product: a NON_CONSUMABLE is owned for good once paid; a CONSUMABLE gives one unit per
 * succeeded payment, and access while a unit is left; one whose offer sells time per unit (a day
 * pass, `unitAccessSeconds`, a partner-side setting) gives access once a unit is spent, for that
 * long from the spend or from the end of the time already running.
 */
export function oneTimeTruth(
  type: Exclude<OfferType, 'SUBSCRIPTION'>,
  paidPayments: number,
  unitsSpent: number,
  time?: SpentTime,
): ServiceTruth {
  if (paidPayments === 0) return { access: false, says: 'nothing bought' };
  if (type === 'NON_CONSUMABLE') return { access: true, says: 'paid once, owned' };
  const counted = `${paidPayments} unit${paidPayments === 1 ? '' : 's'} paid, ${unitsSpent} spent`;
  if (time !== undefined) {
    const endsAt = accessEndOf(time.spentAt, time.unitAccessSeconds);
    if (endsAt === undefined) return { access: false, says: `${counted}, none in use` };
    const access = time.now < endsAt;
    const end = new Date(endsAt).toISOString();
    return { access, says: `${counted}, access ${access ? 'until' : 'ended'} ${end}` };
  }
  return { access: paidPayments - unitsSpent > 0, says: counted };
}

/** The units an account spent of a CONSUMABLE that sells time, and when it is now (ms). */
export interface SpentTime {
  unitAccessSeconds: number;
  /** When each unit was spent, in order. */
  spentAt: readonly number[];
  now: number;
}

/** When the access of units spent at these times ends: each adds its time after the one running. */
function accessEndOf(spentAt: readonly number[], unitAccessSeconds: number): number | undefined {
  let endsAt: number | undefined;
  for (const at of spentAt) endsAt = Math.max(endsAt ?? at, at) + unitAccessSeconds * 1000;
  return endsAt;
}

/**
 * What an access gate's answer means: 2xx lets the account in; 401, 403 or a redirect (to sign-in,
 * to the offers) keeps it out; anything else (500, no answer) says neither. A 404 keeps it out only
 * where the gate is an access endpoint that answers "no such entitlement" with it
 * (`notFoundRefuses`, a receiver's); on a page, it says the page is missing.
 */
export function gateVerdict(
  status: number | null,
  { notFoundRefuses = false }: { notFoundRefuses?: boolean } = {},
): 'granted' | 'refused' | 'unclear' {
  if (status === null) return 'unclear';
  if (status >= 200 && status < 300) return 'granted';
  if (status === 401 || status === 403 || (status >= 300 && status < 400)) return 'refused';
  if (status === 404 && notFoundRefuses) return 'refused';
  return 'unclear';
}
