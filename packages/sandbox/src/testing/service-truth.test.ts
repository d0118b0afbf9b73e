import { describe, expect, it } from 'vitest';
import { gateVerdict, oneTimeTruth, subscriptionTruth } from './service-truth.js';

const withAccess = { days: 3, accessDuringGrace: true };
const withoutAccess = { days: 3, accessDuringGrace: false };

describe('what the service says an account may use', () => {
  it.each([
    [undefined, withAccess, false, 'nothing bought'],
    ['TRIALING', withAccess, true, 'TRIALING'],
    ['ACTIVE', withAccess, true, 'ACTIVE'],
    ['PRE_CANCELED', withAccess, true, 'PRE_CANCELED'],
    ['IN_GRACE', withAccess, true, 'IN_GRACE, with access during grace'],
    ['IN_GRACE', withoutAccess, false, 'IN_GRACE, without access during grace'],
    ['SUSPENDED', withAccess, false, 'SUSPENDED'],
    ['CANCELED', withAccess, false, 'CANCELED'],
    ['EXPIRED', withAccess, false, 'EXPIRED'],
  ] as const)('a subscription %s (grace %o): access %s', (status, grace, access, says) => {
    expect(subscriptionTruth(status, grace)).toEqual({ access, says });
  });

  it('one-time products: owned once paid; a unit per payment until spent', () => {
    expect(oneTimeTruth('NON_CONSUMABLE', 0, 0)).toEqual({ access: false, says: 'nothing bought' });
    expect(oneTimeTruth('NON_CONSUMABLE', 1, 0)).toEqual({ access: true, says: 'paid once, owned' });
    expect(oneTimeTruth('CONSUMABLE', 2, 1)).toEqual({ access: true, says: '2 units paid, 1 spent' });
    expect(oneTimeTruth('CONSUMABLE', 1, 1)).toEqual({ access: false, says: '1 unit paid, 1 spent' });
  });

  it('gives a unit of an offer that sells time access once spent, each spend adding its time', () => {
    const hour = 3_600;
    const at = (minutes: number) => Date.parse('2030-01-01T00:00:00.000Z') + minutes * 60_000;
    const time = (spentAt: number[], now: number) => ({ unitAccessSeconds: hour, spentAt, now });
    expect(oneTimeTruth('CONSUMABLE', 2, 0, time([], at(0)))).toEqual({
      access: false,
      says: '2 units paid, 0 spent, none in use',
    });
    // Two spends 30 minutes apart: two hours from the first.
    const two = time([at(0), at(30)], at(119));
    expect(oneTimeTruth('CONSUMABLE', 2, 2, two)).toEqual({
      access: true,
      says: '2 units paid, 2 spent, access until 2030-01-01T02:00:00.000Z',
    });
    expect(oneTimeTruth('CONSUMABLE', 2, 2, { ...two, now: at(120) }).access).toBe(false);
    // A spend after the time ran out starts its own.
    expect(oneTimeTruth('CONSUMABLE', 2, 2, time([at(0), at(600)], at(659))).access).toBe(true);
  });
});

describe('gateVerdict', () => {
  it.each([
    [200, 'granted'],
    [204, 'granted'],
    [302, 'refused'],
    [303, 'refused'],
    [401, 'refused'],
    [403, 'refused'],
    [404, 'unclear'],
    [500, 'unclear'],
    [null, 'unclear'],
  ] as const)('%s: %s', (status, verdict) => {
    expect(gateVerdict(status)).toBe(verdict);
  });

  it("takes a 404 as a refusal from a receiver's access endpoint only", () => {
    expect(gateVerdict(404, { notFoundRefuses: true })).toBe('refused');
    expect(gateVerdict(500, { notFoundRefuses: true })).toBe('unclear');
  });
});
