import { exampleEntitlement } from '@dcbkit/core/store';
import { describe, expect, it } from 'vitest';
import { DcbError } from '../errors/dcb-error.js';
import { consumeUnit } from './consume-unit.js';
import { availableUnits, hasAccess } from './has-access.js';

const credits = exampleEntitlement({
  productUid: 'prod_credits',
  type: 'CONSUMABLE',
  subscriptionUid: null,
  unitsBought: 2,
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
