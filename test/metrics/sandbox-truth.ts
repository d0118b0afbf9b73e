import type { MetricsReport } from '@dcbkit/core';
import type { Sandbox } from '@dcbkit/sandbox';

type Row = MetricsReport['rows'][number];

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends object ? Mutable<T[K]> : T[K] };

/** The numbers of a row that the service's own records can tell, as the test compares them. */
export type Counted = Mutable<Omit<Row, 'start' | 'productUid' | 'collected'>> & { collected: number };

interface SandboxCharge {
  at: string;
  attempt: number;
  amount: { amount: number; currency: string };
  collected: boolean;
}

export interface SandboxSubscription {
  subscriptionUid: string;
  offerUid: string;
  status: string;
  createdAt: string;
  endedAt: string | null;
  charges: SandboxCharge[];
}

const CHURN: Record<string, keyof Counted['churned']> = {
  CANCELED: 'canceled',
  EXPIRED: 'expired',
  SUSPENDED: 'suspended',
};

function empty(offerUid: string): Counted {
  return {
    offerUid,
    activeSubscribers: 0,
    trialsStarted: 0,
    trialsConverted: 0,
    newSubscriptions: 0,
    renewalsCollected: 0,
    renewalsFailed: 0,
    graceRecovered: 0,
    churned: { canceled: 0, expired: 0, suspended: 0, revoked: 0 },
    unitsSold: 0,
    unitsSpent: 0,
    unlocksSold: 0,
    collected: 0,
  };
}

/** The buckets of the business view, worked out here again so that a bug in the kit's shows. */
export interface TruthBuckets {
  readonly from: string;
  readonly to: string;
  readonly interval: 'day' | 'week' | 'month';
}

const DAY = 86_400_000;

export function bucketOf(iso: string, interval: TruthBuckets['interval']): string {
  const at = new Date(iso);
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  if (interval === 'month') return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)).toISOString();
  if (interval === 'day') return new Date(day).toISOString();
  return new Date(day - ((new Date(day).getUTCDay() + 6) % 7) * DAY).toISOString();
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucket(start: string, interval: TruthBuckets['interval']): string {
  const at = new Date(start);
  if (interval === 'month')
    return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)).toISOString();
  return new Date(at.getTime() + (interval === 'week' ? 7 : 1) * DAY).toISOString();
}

/** The buckets' starts, the first holding `from`, the last starting before `to`. */
export function bucketStarts({ from, to, interval }: TruthBuckets): string[] {
  const starts: string[] = [];
  for (let start = bucketOf(from, interval); start < to; start = nextBucket(start, interval))
    starts.push(start);
  return starts;
}

/**
 * When a subscriber of an offer whose grace withholds access was out: from each charge that failed
 * at a period's end to the next one collected (or for good).
 */
function graceWithoutAccess(subscription: SandboxSubscription): Array<[string, string | null]> {
  const windows: Array<[string, string | null]> = [];
  for (const [index, charge] of subscription.charges.entries()) {
    if (charge.collected || charge.attempt !== 0) continue;
    const back = subscription.charges.slice(index + 1).find((later) => later.collected);
    windows.push([charge.at, back?.at ?? null]);
  }
  return windows;
}

/** Giving access as the bucket ending at `end` ended: what happened at `end` itself counts in the next. */
export function liveAt(subscription: SandboxSubscription, withholdsInGrace: boolean, end: string): boolean {
  if (subscription.createdAt >= end || (subscription.endedAt !== null && subscription.endedAt < end))
    return false;
  if (!withholdsInGrace) return true;
  return !graceWithoutAccess(subscription).some(([out, back]) => out < end && (back === null || back >= end));
}

/** Every subscription the sandbox keeps, with its charges, from its own records' endpoint. */
export async function sandboxSubscriptions(sandbox: Sandbox): Promise<SandboxSubscription[]> {
  const answer = await fetch(
    `${sandbox.apiBaseUrl}/sandbox/subscriptions?clientId=${sandbox.credentials.clientId}`,
  );
  return ((await answer.json()) as { data: SandboxSubscription[] }).data;
}

/**
 * Bucket by bucket and offer, what the sandbox itself recorded: its subscriptions (created, charged
 * at each attempt, ended), the payments its events say succeeded, and the units the shop spent.
 * Nothing here reads the kit.
 */
export async function sandboxTruth(
  sandbox: Sandbox,
  buckets: TruthBuckets,
  spent: ReadonlyArray<{ at: string; offerUid: string }>,
): Promise<Map<string, Counted>> {
  const offers = new Map(sandbox.config.offers.map((offer) => [offer.offerUid, offer]));
  const truth = new Map<string, Counted>();
  const starts = bucketStarts(buckets);
  const at = (iso: string, offerUid: string): Counted => {
    const key = `${bucketOf(iso, buckets.interval)}|${offerUid}`;
    const row = truth.get(key) ?? empty(offerUid);
    truth.set(key, row);
    return row;
  };
  const subscriptions = await sandboxSubscriptions(sandbox);
  for (const subscription of subscriptions) {
    const offer = offers.get(subscription.offerUid);
    if (!offer) throw new Error(`no offer ${subscription.offerUid}`);
    const trial = (offer.trialDays ?? 0) > 0;
    const started = at(subscription.createdAt, offer.offerUid);
    if (trial) started.trialsStarted++;
    else {
      started.newSubscriptions++;
      started.collected += offer.price.amount;
    }
    let paidPeriods = trial ? 0 : 1;
    for (const charge of subscription.charges) {
      const row = at(charge.at, offer.offerUid);
      if (!charge.collected) {
        if (charge.attempt === 0 && offer.gracePolicy.days > 0) row.renewalsFailed++;
        continue;
      }
      row.collected += charge.amount.amount;
      if (charge.attempt > 0) row.graceRecovered++;
      if (paidPeriods === 0) row.trialsConverted++;
      else row.renewalsCollected++;
      paidPeriods++;
    }
    const cause = CHURN[subscription.status];
    if (subscription.endedAt && cause) at(subscription.endedAt, offer.offerUid).churned[cause]++;
    const withholds = !offer.gracePolicy.accessDuringGrace;
    for (const start of starts) {
      if (liveAt(subscription, withholds, nextBucket(start, buckets.interval))) {
        at(start, offer.offerUid).activeSubscribers++;
      }
    }
  }
  const paid = new Set<string>();
  for (const delivery of sandbox.webhooks()) {
    const event = delivery.payload;
    if (event.event !== 'payment.succeeded' || !event.paymentUid || paid.has(event.paymentUid)) continue;
    paid.add(event.paymentUid);
    const offer = offers.get(event.offerUid ?? '');
    if (!offer || offer.type === 'SUBSCRIPTION') continue;
    const row = at(event.occurredAt, offer.offerUid);
    row.collected += offer.price.amount;
    if (offer.type === 'CONSUMABLE') row.unitsSold++;
    else row.unlocksSold++;
  }
  for (const unit of spent) at(unit.at, unit.offerUid).unitsSpent++;
  return truth;
}

/** The kit's rows in the same shape, by month and offer (rows with nothing at all left out). */
export function kitCounts(report: MetricsReport): Map<string, Counted> {
  const counted = new Map<string, Counted>();
  for (const { start, productUid: _product, collected, ...row } of report.rows) {
    const numbers: Counted = { ...row, collected: collected.amount };
    if (isEmpty(numbers)) continue;
    counted.set(`${start}|${row.offerUid}`, numbers);
  }
  return counted;
}

export function withoutEmpty(truth: Map<string, Counted>): Map<string, Counted> {
  return new Map([...truth].filter(([, row]) => !isEmpty(row)));
}

function isEmpty(row: Counted): boolean {
  return JSON.stringify({ ...row, offerUid: '' }) === JSON.stringify(empty(''));
}
