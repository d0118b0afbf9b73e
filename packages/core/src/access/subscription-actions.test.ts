import { describe, expect, it } from 'vitest';
import type { EntitlementStatus } from '../schemas/entitlement.js';
import { exampleEntitlement } from '../store/conformance/example-entitlement.js';
import { accessEndsAt, subscriptionActions } from './subscription-actions.js';

const subscription = (status: EntitlementStatus, fields = {}) =>
  exampleEntitlement({ type: 'SUBSCRIPTION', status, subscriptionUid: 'sub_1', ...fields });

describe('subscriptionActions', () => {
  it.each([
    ['TRIALING', { cancelAtPeriodEnd: true, cancelNow: true, resume: false }],
    ['ACTIVE', { cancelAtPeriodEnd: true, cancelNow: true, resume: false }],
    ['IN_GRACE', { cancelAtPeriodEnd: true, cancelNow: true, resume: false }],
    ['PRE_CANCELED', { cancelAtPeriodEnd: false, cancelNow: true, resume: true }],
    ['REVOKED', { cancelAtPeriodEnd: false, cancelNow: false, resume: false }],
  ] as const)('%s', (status, actions) => {
    expect(subscriptionActions(subscription(status))).toEqual(actions);
  });

  it('offers nothing for a one-time purchase, a subscription without its uid, or nothing at all', () => {
    const none = { cancelAtPeriodEnd: false, cancelNow: false, resume: false };
    expect(subscriptionActions(exampleEntitlement({ type: 'NON_CONSUMABLE', status: 'ACTIVE' }))).toEqual(
      none,
    );
    expect(subscriptionActions(subscription('ACTIVE', { subscriptionUid: null }))).toEqual(none);
    expect(subscriptionActions(undefined)).toEqual(none);
  });
});

describe('accessEndsAt', () => {
  it('is the scheduled cancellation, else the trial end while trialing, else the period end', () => {
    const dates = {
      cancelAt: '2030-01-03T00:00:00.000Z',
      trialEndsAt: '2030-01-02T00:00:00.000Z',
      currentPeriodEnd: '2030-01-05T00:00:00.000Z',
    };
    expect(accessEndsAt(subscription('PRE_CANCELED', dates))).toBe(dates.cancelAt);
    expect(accessEndsAt(subscription('TRIALING', { ...dates, cancelAt: null }))).toBe(dates.trialEndsAt);
    expect(accessEndsAt(subscription('ACTIVE', { ...dates, cancelAt: null }))).toBe(dates.currentPeriodEnd);
    expect(accessEndsAt(undefined)).toBeNull();
  });
});
