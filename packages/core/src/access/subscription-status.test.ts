import { describe, expect, it } from 'vitest';
import { entitlementStatusOfSubscription } from './subscription-status.js';
import { trialRunsAt } from './times.js';

const now = '2030-01-03T00:00:00.000Z';
const ahead = '2030-01-08T00:00:00.000Z';
const past = '2030-01-02T00:00:00.000Z';

describe('entitlementStatusOfSubscription: what a subscription read gives', () => {
  it('an ACTIVE subscription whose trial end is still ahead is still the trial (a resumed trial)', () => {
    expect(entitlementStatusOfSubscription({ status: 'ACTIVE', trialEndsAt: ahead }, now)).toBe('TRIALING');
  });

  it('ACTIVE once the trial end has passed, or without one', () => {
    expect(entitlementStatusOfSubscription({ status: 'ACTIVE', trialEndsAt: past }, now)).toBe('ACTIVE');
    expect(entitlementStatusOfSubscription({ status: 'ACTIVE', trialEndsAt: now }, now)).toBe('ACTIVE');
    expect(entitlementStatusOfSubscription({ status: 'ACTIVE', trialEndsAt: null }, now)).toBe('ACTIVE');
    expect(entitlementStatusOfSubscription({ status: 'ACTIVE' }, now)).toBe('ACTIVE');
  });

  it('every other status maps as it is, a trial end notwithstanding', () => {
    expect(entitlementStatusOfSubscription({ status: 'PRE_CANCELED', trialEndsAt: ahead }, now)).toBe(
      'PRE_CANCELED',
    );
    expect(entitlementStatusOfSubscription({ status: 'TRIALING', trialEndsAt: ahead }, now)).toBe('TRIALING');
    expect(entitlementStatusOfSubscription({ status: 'CANCELED', trialEndsAt: ahead }, now)).toBe('REVOKED');
  });

  it('trialRunsAt: only a trial end strictly after the moment', () => {
    expect(trialRunsAt(ahead, now)).toBe(true);
    expect(trialRunsAt(now, now)).toBe(false);
    expect(trialRunsAt(undefined, now)).toBe(false);
  });
});
