import { exampleEntitlement } from '@dcbkit/core/store';
import { describe, expect, it } from 'vitest';
import { DcbError } from '../errors/dcb-error.js';
import { consumeUnit, consumeUnitAt } from './consume-unit.js';
import { availableUnits, hasAccess } from './has-access.js';

const credits = exampleEntitlement({
  productUid: 'prod_credits',
  type: 'CONSUMABLE',
  subscriptionUid: null,
  unitsBought: 2,
});

const NOW = new Date('2026-11-24T12:00:00.000Z');
const DAY = 86_400;
const dayPass = exampleEntitlement({
  productUid: 'prod_day_pass',
  type: 'CONSUMABLE',
  subscriptionUid: null,
  unitsBought: 1,
  unitAccessSeconds: DAY,
});

describe('hasAccess', () => {
  it('is false without an entitlement', () => {
    expect(hasAccess(undefined)).toBe(false);
  });

  it('keeps a PRE_CANCELED subscription on when no cancelAt is known', () => {
    expect(hasAccess(exampleEntitlement({ status: 'PRE_CANCELED', cancelAt: null }))).toBe(true);
  });

  it('gives a consumable access while a unit is left', () => {
    expect(hasAccess(credits)).toBe(true);
    expect(hasAccess({ ...credits, unitsUsed: 2 })).toBe(false);
    expect(hasAccess({ ...credits, status: 'REVOKED' })).toBe(false);
  });

  it('gives a day pass access once spent, until its day ends, and none while only held', () => {
    expect(hasAccess(dayPass, NOW)).toBe(false);
    const spent = { ...dayPass, unitsUsed: 1, unitAccessEndsAt: '2026-11-25T12:00:00.000Z' };
    expect(hasAccess(spent, NOW)).toBe(true);
    expect(hasAccess(spent, new Date('2026-11-25T11:59:59.999Z'))).toBe(true);
    expect(hasAccess(spent, new Date('2026-11-25T12:00:00.000Z'))).toBe(false);
    expect(hasAccess({ ...spent, status: 'REVOKED' }, NOW)).toBe(false);
  });
});

describe('consumeUnit', () => {
  it('uses one unit at a time until none is left', () => {
    const once = consumeUnit(credits);
    const twice = consumeUnit(once);
    expect(availableUnits(once)).toBe(1);
    expect(twice.unitsUsed).toBe(2);
    expect(availableUnits(twice)).toBe(0);
    expect(() => consumeUnit(twice)).toThrow(expect.objectContaining({ code: 'no_units_left' }));
  });

  it('leaves a unit of credits without an end', () => {
    expect(consumeUnitAt(NOW)(credits).unitAccessEndsAt).toBe(null);
  });

  it('opens a day pass for its day from the spend, and a second one adds a day after the first', () => {
    const first = consumeUnitAt(NOW)({ ...dayPass, unitsBought: 2 });
    expect(first).toMatchObject({ unitsUsed: 1, unitAccessEndsAt: '2026-11-25T12:00:00.000Z' });
    const second = consumeUnitAt(new Date('2026-11-24T18:00:00.000Z'))(first);
    expect(second).toMatchObject({ unitsUsed: 2, unitAccessEndsAt: '2026-11-26T12:00:00.000Z' });
    // Once a day is over, the next pass starts from its own spend, not from the old end.
    const later = consumeUnitAt(new Date('2026-12-01T08:00:00.000Z'))({ ...first, unitsBought: 2 });
    expect(later.unitAccessEndsAt).toBe('2026-12-02T08:00:00.000Z');
    expect(() => consumeUnitAt(NOW)(second)).toThrow(expect.objectContaining({ code: 'no_units_left' }));
  });

  it.each([
    ['entitlement_not_found', undefined],
    ['not_consumable', exampleEntitlement()],
    ['entitlement_revoked', { ...credits, status: 'REVOKED' as const }],
  ])('refuses with %s', (code, entitlement) => {
    try {
      consumeUnit(entitlement);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DcbError);
      expect((error as DcbError).code).toBe(code);
    }
  });
});
