import { randomUUID } from 'node:crypto';
import type { Entitlement } from '../../schemas/entitlement.js';

/** Ids unique to one run, so that checks against a shared database never collide. */
export function uniqueId(prefix: string): string {
  return `${prefix}_${randomUUID()}`;
}

/**
 * A complete, valid entitlement (every field set) for store tests; override what you need.
 *
 * @example
 * await store.update('user_1', 'prod_a', () => exampleEntitlement({ accountKey: 'user_1', productUid: 'prod_a' }));
 */
export function exampleEntitlement(overrides: Partial<Entitlement> = {}): Entitlement {
  return {
    accountKey: 'user_42',
    productUid: 'prod_premium',
    offerUid: 'off_premium_monthly',
    type: 'SUBSCRIPTION',
    status: 'ACTIVE',
    subscriptionUid: 'sub_1',
    subscriberUid: 'sbr_1',
    currentPeriodEnd: '2026-12-21T12:00:00.000Z',
    trialEndsAt: '2026-11-28T12:00:00.000Z',
    cancelAt: null,
    graceEndsAt: null,
    unitsBought: 0,
    unitsUsed: 0,
    unitAccessSeconds: null,
    unitAccessEndsAt: null,
    lastEventName: 'payment.succeeded',
    lastEventAt: '2026-11-21T12:00:00.000Z',
    ...overrides,
  };
}
