import type { MetricsReport } from '@dcbkit/core';
import type { Sandbox } from '@dcbkit/sandbox';
import { liveAt, type SandboxSubscription, sandboxSubscriptions } from './sandbox-truth.js';

/** The headline figures the sandbox's own records give: what the kit's `totals` are compared with. */
export type Figures = Pick<
  MetricsReport['totals'],
  | 'activeSubscribers'
  | 'churnRate'
  | 'firstAttemptCollectionRate'
  | 'graceRecoveryRate'
  | 'trialConversionRate'
>;

interface Period {
  readonly from: string;
  readonly to: string;
}

/**
 * The figures of `period` and of `previous`, from the sandbox's subscriptions alone (their
 * creation, charges by attempt, and end), by the definitions of docs/operations.md: live at the
 * period's end; ended over live at its start plus started in it; charges due collected on their
 * first attempt; charges collected on a grace retry over first attempts that failed into grace.
 */
export async function sandboxFigures(sandbox: Sandbox, period: Period, previous: Period): Promise<Figures> {
  const offers = new Map(sandbox.config.offers.map((offer) => [offer.offerUid, offer]));
  const subscriptions = await sandboxSubscriptions(sandbox);
  const of = (range: Period) =>
    figuresOf(subscriptions, range, (uid) => offers.get(uid), sandbox.clock.now().toISOString());
  const now = of(period);
  const before = of(previous);
  return {
    activeSubscribers: { value: now.active, previous: before.active },
    churnRate: { value: now.churn, previous: before.churn },
    firstAttemptCollectionRate: { value: now.firstAttempt, previous: before.firstAttempt },
    graceRecoveryRate: { value: now.recovery, previous: before.recovery },
    trialConversionRate: { value: now.trialConversion, previous: before.trialConversion },
  };
}

type OfferOf = (
  offerUid: string,
) => { trialDays?: number; gracePolicy: { days: number; accessDuringGrace: boolean } } | undefined;

function figuresOf(
  subscriptions: readonly SandboxSubscription[],
  { from, to }: Period,
  offerOf: OfferOf,
  now: string,
) {
  const inPeriod = (at: string | null) => at !== null && at >= from && at < to;
  let [active, atStart, started, ended] = [0, 0, 0, 0];
  let [firstCollected, firstDue, retried, intoGrace] = [0, 0, 0, 0];
  let [trials, converted, stillInTrial] = [0, 0, 0];
  for (const subscription of subscriptions) {
    const offer = offerOf(subscription.offerUid);
    if (!offer) throw new Error(`no offer ${subscription.offerUid}`);
    const grace = offer.gracePolicy;
    // A trial begun in the period: converted once a charge was collected; still running while
    // neither that nor its end came (as the sandbox's clock stands).
    if ((offer.trialDays ?? 0) > 0 && inPeriod(subscription.createdAt)) {
      trials++;
      if (subscription.charges.some((charge) => charge.collected)) converted++;
      else if (subscription.endedAt === null || subscription.endedAt > now) stillInTrial++;
    }
    const withholds = !grace.accessDuringGrace;
    if (liveAt(subscription, withholds, to)) active++;
    if (liveAt(subscription, withholds, from)) atStart++;
    if (inPeriod(subscription.createdAt)) started++;
    if (inPeriod(subscription.endedAt)) ended++;
    for (const charge of subscription.charges) {
      if (!inPeriod(charge.at)) continue;
      if (charge.attempt === 0) {
        firstDue++;
        if (charge.collected) firstCollected++;
        else if (grace.days > 0) intoGrace++;
      } else if (charge.collected) retried++;
    }
  }
  const rate = (part: number, whole: number) => (whole > 0 ? part / whole : null);
  return {
    active,
    churn: rate(ended, atStart + started),
    firstAttempt: rate(firstCollected, firstDue),
    recovery: rate(retried, intoGrace),
    trialConversion: rate(converted, trials - stillInTrial),
  };
}
