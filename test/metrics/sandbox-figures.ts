import type { MetricsReport } from '@dcbkit/core';
import type { Sandbox } from '@dcbkit/sandbox';
import { funnelTruth } from './funnel-truth.js';
import { lifecycleTruth } from './lifecycle-truth.js';
import { liveAt, type SandboxSubscription, sandboxSubscriptions } from './sandbox-truth.js';

/** The headline figures the sandbox's own records give: what the kit's `totals` are compared with. */
export type Figures = MetricsReport['totals'];

/** Whose figures: the payments the shop's routes created (its checkouts), and one offer or all. */
export interface FiguresOf {
  readonly routed: Iterable<string>;
  readonly offerUid?: string | undefined;
}

interface Period {
  readonly from: string;
  readonly to: string;
}

/**
 * The figures of `period` and of `previous`, from the sandbox's records alone (its subscriptions'
 * creation, charges by attempt, and end; the payments of the shop's checkouts), by the definitions
 * of docs/operations.md: live at the period's end; the monthly value of the paid ones live then,
 * per currency; ended over live at its start plus started in it; charges due collected on their
 * first attempt; charges collected on a grace retry over first attempts that failed into grace;
 * checkouts started in it that ended paid over those that ended. In `report.totals`' order.
 */
export async function sandboxFigures(
  sandbox: Sandbox,
  period: Period,
  previous: Period,
  { routed, offerUid }: FiguresOf,
): Promise<Figures> {
  const offers = new Map(sandbox.config.offers.map((offer) => [offer.offerUid, offer]));
  const subscriptions = (await sandboxSubscriptions(sandbox)).filter(
    (subscription) => offerUid === undefined || subscription.offerUid === offerUid,
  );
  const of = (range: Period) =>
    figuresOf(subscriptions, range, (uid) => offers.get(uid), sandbox.clock.now().toISOString());
  const now = of(period);
  const before = of(previous);
  const lifecycles = await lifecycleTruth(sandbox, previous.from, new Date(period.to));
  const checkouts = [...routed];
  const converted = (range: Period) => checkoutConversion(sandbox, range, checkouts, offerUid);
  return {
    activeSubscribers: { value: now.active, previous: before.active },
    recurringRevenue: revenueBeside(
      lifecycles.recurringRevenue(period.to, offerUid),
      lifecycles.recurringRevenue(previous.to, offerUid),
    ),
    trialConversionRate: { value: now.trialConversion, previous: before.trialConversion },
    churnRate: { value: now.churn, previous: before.churn },
    firstAttemptCollectionRate: { value: now.firstAttempt, previous: before.firstAttempt },
    graceRecoveryRate: { value: now.recovery, previous: before.recovery },
    checkoutConversionRate: { value: await converted(period), previous: await converted(previous) },
  };
}

/** Each currency's recurring revenue now and as the previous period ended, in the codes' order. */
function revenueBeside(now: Map<string, number>, before: Map<string, number>): Figures['recurringRevenue'] {
  return [...new Set([...now.keys(), ...before.keys()])]
    .sort()
    .map((currency) => ({ currency, value: now.get(currency) ?? 0, previous: before.get(currency) ?? 0 }));
}

/** Of the shop's checkouts started in `range` that have ended (as the sandbox holds them), the share paid. */
async function checkoutConversion(
  sandbox: Sandbox,
  { from, to }: Period,
  routed: readonly string[],
  offerUid: string | undefined,
): Promise<number | null> {
  const funnel = await funnelTruth(sandbox, { from, to, interval: 'day' }, routed);
  let [ended, paid] = [0, 0];
  for (const row of funnel.values()) {
    if (offerUid !== undefined && row.offerUid !== offerUid) continue;
    ended += row.started - row.pending;
    paid += row.succeeded;
  }
  return ended > 0 ? paid / ended : null;
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
