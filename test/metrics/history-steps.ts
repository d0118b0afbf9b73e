import fc from 'fast-check';

/** The offers a random history buys, by a short name (their uids are in `OFFER_UIDS`). */
export type OfferName = 'trial' | 'paid' | 'weekly' | 'daily' | 'pass' | 'unlock';

/** How a checkout that does not end in a charge ends. */
export type Refusal =
  | 'opted-out'
  | 'invalid-number'
  | 'unsupported-operator'
  | 'no-balance'
  | 'declined'
  | 'wrong-pin'
  | 'abandoned'
  | 'left-to-expire';

/** Through the kit's partner routes (as a shop's pages do), or straight at the service's API. */
export type Via = 'routes' | 'api';

/**
 * One thing a partner's world does: a subscriber buys (on one of a few phone lines, so that a line
 * can pay twice, a trial be used again or an unlock be owned), a checkout fails, a subscription is
 * cancelled or resumed, its next charges are forced to fail, a pass is spent, time passes, the
 * webhook receiver goes down (then reconciliation and a replay of the dead letters repair it).
 * `account` and `pick` are small numbers the player maps onto what exists when the step runs.
 */
export type Step =
  | { do: 'buy'; account: number; offer: OfferName; line: number; via: Via; returnPage: boolean }
  | { do: 'refuse'; account: number; offer: OfferName; as: Refusal; via?: Via }
  | { do: 'cancel'; account: number; pick: number; when: 'NOW' | 'PERIOD_END'; via: Via }
  | { do: 'resume'; account: number; pick: number; via: Via }
  | { do: 'renewals'; account: number; pick: number; fail: 'once' | 'twice' | 'always' }
  | { do: 'spend'; account: number }
  | { do: 'wait'; hours: number }
  | { do: 'outage'; hours: number }
  | { do: 'reconcile' };

/** A whole history: the steps, the delivery chaos and the kit's line policy it runs under. */
export interface History {
  readonly steps: readonly Step[];
  readonly chaos: { readonly seed: number; readonly duplicate: number; readonly reorder: number };
  readonly linePolicy: 'report' | 'cancel-newer';
}

export const ACCOUNTS = 6;
export const LINES = 5;

const account = fc.nat({ max: ACCOUNTS - 1 });
const pick = fc.nat({ max: 3 });
const via = fc.constantFrom<Via>('routes', 'api');
const offer = fc.constantFrom<OfferName>('trial', 'paid', 'weekly', 'daily', 'pass', 'unlock');

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      do: fc.constant('buy' as const),
      account,
      offer,
      line: fc.nat({ max: LINES - 1 }),
      via,
      returnPage: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      do: fc.constant('refuse' as const),
      account,
      offer,
      as: fc.constantFrom<Refusal>(
        'opted-out',
        'invalid-number',
        'unsupported-operator',
        'no-balance',
        'declined',
        'wrong-pin',
        'abandoned',
        'left-to-expire',
      ),
      // Through the routes, the checkout funnel counts it (at the service, it is not a checkout of the shop's).
      via,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      do: fc.constant('cancel' as const),
      account,
      pick,
      when: fc.constantFrom<'NOW' | 'PERIOD_END'>('NOW', 'PERIOD_END'),
      via,
    }),
  },
  { weight: 2, arbitrary: fc.record({ do: fc.constant('resume' as const), account, pick, via }) },
  {
    weight: 3,
    arbitrary: fc.record({
      do: fc.constant('renewals' as const),
      account,
      pick,
      fail: fc.constantFrom<'once' | 'twice' | 'always'>('once', 'twice', 'always'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ do: fc.constant('spend' as const), account }) },
  {
    weight: 8,
    arbitrary: fc.record({ do: fc.constant('wait' as const), hours: fc.integer({ min: 1, max: 400 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ do: fc.constant('outage' as const), hours: fc.integer({ min: 1, max: 96 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ do: 'reconcile' as const }) },
);

/** Random histories: up to `maxSteps` steps (shrunk towards fewer and simpler ones when one fails). */
export function historyArbitrary(maxSteps = 60): fc.Arbitrary<History> {
  return fc.record({
    steps: fc.array(step, { minLength: 1, maxLength: maxSteps, size: 'max' }),
    chaos: fc.record({
      seed: fc.nat({ max: 1_000_000 }),
      duplicate: fc.constantFrom(0, 0.2, 0.5),
      reorder: fc.constantFrom(0, 0.2, 0.5),
    }),
    linePolicy: fc.constantFrom<'report' | 'cancel-newer'>('report', 'cancel-newer'),
  });
}

/** A history as TypeScript source, ready to paste into a test that replays it. */
export function historySource(history: History): string {
  const steps = history.steps.map((one) => `    ${JSON.stringify(one)},`).join('\n');
  return [
    '{',
    `  chaos: ${JSON.stringify(history.chaos)},`,
    `  linePolicy: '${history.linePolicy}',`,
    '  steps: [',
    steps,
    '  ],',
    '}',
  ].join('\n');
}
