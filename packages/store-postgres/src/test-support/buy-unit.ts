import type { Entitlement } from '@dcbkit/core';
import { type EntitlementChange, exampleEntitlement } from '@dcbkit/core/store';

/** A credits entitlement with no unit bought yet, for the unit purchase tests. */
export function noCredits(accountKey: string): Entitlement {
  return exampleEntitlement({
    accountKey,
    productUid: 'prod_credits',
    offerUid: 'off_credits',
    type: 'CONSUMABLE',
    subscriptionUid: null,
    currentPeriodEnd: null,
    trialEndsAt: null,
  });
}

/** A unit purchase as the rules make it: counted only for an order the store does not know yet. */
export function buyUnit(blank: Entitlement): EntitlementChange {
  return (current, known) => {
    const held = current ?? blank;
    return known.unitOrderId ? held : { ...held, unitsBought: held.unitsBought + 1 };
  };
}
