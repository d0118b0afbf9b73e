import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MetricEntry } from './metric-entry.js';
import { lifecyclesOfFacts, mergeLifecycles, type SubscriptionLifecycle } from './subscription-lifecycle.js';

const base = {
  subscriptionUid: 'sub_1',
  accountKey: 'user_1',
  productUid: 'prod_premium',
  offerUid: 'offer_premium_monthly',
  currency: 'TND',
  monthlyValue: 4500,
};

function fact(kind: MetricEntry['kind'], occurredAt: string, fields: Partial<MetricEntry> = {}): MetricEntry {
  return {
    key: `${kind}:${occurredAt}`,
    kind,
    offerUid: base.offerUid,
    productUid: base.productUid,
    occurredAt,
    count: 1,
    amount: 0,
    currency: 'TND',
    live: 0,
    subscriptionUid: base.subscriptionUid,
    accountKey: base.accountKey,
    monthlyValue: base.monthlyValue,
    ...fields,
  };
}

describe('lifecyclesOfFacts', () => {
  it("tells a subscription's trial, first charge and end from its facts, one record per subscription", () => {
    const records = lifecyclesOfFacts([
      fact('trial_started', '2030-01-01T00:00:00.000Z'),
      fact('renewal_collected', '2030-03-08T00:00:00.000Z'),
      fact('trial_converted', '2030-01-08T00:00:00.000Z'),
      fact('renewal_failed', '2030-04-08T00:00:00.000Z'),
      fact('churn_suspended', '2030-04-11T00:00:00.000Z', { provisional: true }),
      fact('unit_sold', '2030-01-02T00:00:00.000Z', { subscriptionUid: undefined }),
      fact('new_subscription', '2030-02-01T00:00:00.000Z', { subscriptionUid: 'sub_2' }),
    ]);
    expect(records).toEqual([
      {
        ...base,
        trialStartedAt: { at: '2030-01-01T00:00:00.000Z', provisional: false },
        firstPaidAt: { at: '2030-01-08T00:00:00.000Z', provisional: false },
        endedAt: { at: '2030-04-11T00:00:00.000Z', provisional: true },
        endCause: 'suspended',
      },
      {
        ...base,
        subscriptionUid: 'sub_2',
        firstPaidAt: { at: '2030-02-01T00:00:00.000Z', provisional: false },
      },
    ]);
  });

  it('tells nothing of a fact without its account', () => {
    expect(
      lifecyclesOfFacts([fact('trial_started', '2030-01-01T00:00:00.000Z', { accountKey: undefined })]),
    ).toEqual([]);
  });
});

describe('mergeLifecycles', () => {
  const time = fc.record({
    at: fc.integer({ min: 0, max: 5 }).map((day) => `2030-01-0${day + 1}T00:00:00.000Z`),
    provisional: fc.boolean(),
  });
  const part: fc.Arbitrary<SubscriptionLifecycle> = fc
    .record(
      {
        trialStartedAt: time,
        firstPaidAt: time,
        ended: fc.record({
          endedAt: time,
          endCause: fc.constantFrom('canceled', 'expired', 'suspended', 'revoked'),
        }),
      },
      { requiredKeys: [] },
    )
    .map(({ ended, ...times }) => ({ ...base, ...times, ...ended }));

  it('is commutative, associative and idempotent: any order of deliveries, duplicates included, gives one record', () => {
    fc.assert(
      fc.property(part, part, part, (a, b, c) => {
        expect(mergeLifecycles(a, b)).toEqual(mergeLifecycles(b, a));
        expect(mergeLifecycles(mergeLifecycles(a, b), c)).toEqual(mergeLifecycles(a, mergeLifecycles(b, c)));
        expect(mergeLifecycles(a, a)).toEqual(a);
      }),
    );
  });

  it("takes the event's time over a read's, and the earliest of each", () => {
    const merged = mergeLifecycles(
      { ...base, firstPaidAt: { at: '2030-01-01T00:00:00.000Z', provisional: true } },
      { ...base, firstPaidAt: { at: '2030-01-03T00:00:00.000Z', provisional: false } },
    );
    expect(merged.firstPaidAt).toEqual({ at: '2030-01-03T00:00:00.000Z', provisional: false });
  });
});
