import { describe, expect, it } from 'vitest';
import type { Entitlement } from '../schemas/entitlement.js';
import { accessReason } from './access-reason.js';
import { hasAccess } from './has-access.js';

const NOW = new Date('2026-11-24T12:00:00Z');
const base: Entitlement = {
  accountKey: 'alice',
  productUid: 'prod_premium',
  offerUid: 'off_monthly',
  type: 'SUBSCRIPTION',
  status: 'ACTIVE',
  subscriptionUid: 'sub_1',
  subscriberUid: 'sbr_1',
  currentPeriodEnd: '2026-12-01T00:00:00Z',
  trialEndsAt: null,
  cancelAt: null,
  graceEndsAt: null,
  unitsBought: 0,
  unitsUsed: 0,
  unitAccessSeconds: null,
  unitAccessEndsAt: null,
  lastEventName: 'payment.succeeded',
  lastEventAt: '2026-11-01T00:00:00Z',
};

const dayPass: Entitlement = {
  ...base,
  productUid: 'prod_day_pass',
  type: 'CONSUMABLE',
  subscriptionUid: null,
  currentPeriodEnd: null,
  unitsBought: 1,
  unitAccessSeconds: 86_400,
};

describe('accessReason', () => {
  it.each<[string, Entitlement | undefined, string]>([
    ['none', undefined, 'no_entitlement'],
    ['active', base, 'active'],
    ['trialing', { ...base, status: 'TRIALING', trialEndsAt: '2026-12-01T00:00:00Z' }, 'trialing'],
    ['canceling', { ...base, status: 'PRE_CANCELED', cancelAt: '2026-12-01T00:00:00Z' }, 'canceling'],
    ['canceled, date passed', { ...base, status: 'PRE_CANCELED', cancelAt: '2026-11-20T00:00:00Z' }, 'ended'],
    ['in grace', { ...base, status: 'IN_GRACE', graceEndsAt: '2026-11-27T00:00:00Z' }, 'in_grace'],
    ['grace over', { ...base, status: 'IN_GRACE', graceEndsAt: '2026-11-22T00:00:00Z' }, 'ended'],
    ['grace without access', { ...base, status: 'IN_GRACE' }, 'grace_without_access'],
    ['revoked', { ...base, status: 'REVOKED', lastEventName: 'subscription.canceled' }, 'revoked'],
    ['units', { ...base, type: 'CONSUMABLE', unitsBought: 3, unitsUsed: 1 }, 'units_left'],
    ['no units', { ...base, type: 'CONSUMABLE', unitsBought: 1, unitsUsed: 1 }, 'no_units_left'],
    [
      'a day pass in use',
      { ...dayPass, unitsUsed: 1, unitAccessEndsAt: '2026-11-25T00:00:00Z' },
      'unit_in_use',
    ],
    ['a day pass to use', dayPass, 'unit_unused'],
    [
      'a day pass to use, the last day over',
      { ...dayPass, unitsBought: 2, unitsUsed: 1, unitAccessEndsAt: '2026-11-24T00:00:00Z' },
      'unit_unused',
    ],
    [
      'every day pass used, the last day over',
      { ...dayPass, unitsUsed: 1, unitAccessEndsAt: '2026-11-24T00:00:00Z' },
      'no_units_left',
    ],
    [
      'a day pass revoked',
      { ...dayPass, status: 'REVOKED', unitAccessEndsAt: '2026-11-25T00:00:00Z' },
      'revoked',
    ],
  ])('%s: %s', (_name, entitlement, code) => {
    const reason = accessReason(entitlement, NOW);
    expect(reason.code).toBe(code);
    // The same rule as hasAccess, said as a code: they never disagree.
    expect(reason.hasAccess).toBe(hasAccess(entitlement, NOW));
  });

  it('says until when access ends, and the units left', () => {
    expect(accessReason({ ...base, status: 'PRE_CANCELED', cancelAt: null }, NOW).until).toBe(
      base.currentPeriodEnd,
    );
    expect(accessReason({ ...base, type: 'CONSUMABLE', unitsBought: 3, unitsUsed: 1 }, NOW).units).toBe(2);
  });

  it('says until when a spent day pass gives access, and when the last one ended', () => {
    const inUse = { ...dayPass, unitsBought: 2, unitsUsed: 1, unitAccessEndsAt: '2026-11-25T00:00:00Z' };
    expect(accessReason(inUse, NOW)).toMatchObject({
      hasAccess: true,
      until: '2026-11-25T00:00:00Z',
      units: 1,
    });
    const over = { ...inUse, unitsUsed: 2, unitAccessEndsAt: '2026-11-24T00:00:00Z' };
    expect(accessReason(over, NOW)).toMatchObject({
      hasAccess: false,
      until: '2026-11-24T00:00:00Z',
      units: 0,
    });
    expect(accessReason(dayPass, NOW)).toMatchObject({ hasAccess: false, until: null, units: 1 });
  });

  it('a free trial: until its end, where the first charge comes; a trial cancelled at its end has none', () => {
    const trialEndsAt = '2026-12-04T00:00:00Z';
    expect(accessReason({ ...base, status: 'TRIALING', trialEndsAt }, NOW)).toMatchObject({
      code: 'trialing',
      until: trialEndsAt,
      firstChargeAt: trialEndsAt,
    });
    expect(
      accessReason({ ...base, status: 'PRE_CANCELED', trialEndsAt, cancelAt: trialEndsAt }, NOW),
    ).toMatchObject({ code: 'canceling', until: trialEndsAt, firstChargeAt: null });
    expect(accessReason(base, NOW).firstChargeAt).toBeNull();
  });
});
