import type { DcbKit } from '@dcbkit/core';
import type { EntitlementStore } from '@dcbkit/core/store';
import type { Sandbox } from '@dcbkit/sandbox';

/**
 * Cohorts, recurring revenue movements and the trial funnel worked out again from the sandbox's own
 * records (its subscriptions with their charges and ends, the account each payment was made for),
 * by brute force and without the kit's code, so that a bug in the kit's shows.
 */

interface SandboxSubscription {
  subscriptionUid: string;
  offerUid: string;
  productUid: string;
  paymentUid: string;
  status: string;
  createdAt: string;
  endedAt: string | null;
  charges: Array<{ at: string; collected: boolean }>;
}

/** One subscription as the sandbox lived it. */
interface Lived {
  uid: string;
  subscriber: string;
  offerUid: string;
  currency: string;
  monthlyValue: number;
  trialStartedAt: number | null;
  paidAt: number | null;
  endedAt: number | null;
  status: string;
}

export type Interval = 'day' | 'week' | 'month';

const DAY = 86_400_000;
/** A month's worth of a billing period's price, as docs/operations.md defines it. */
const PER_MONTH: Record<string, number> = { DAY: 365 / 12, WEEK: 52 / 12, MONTH: 1, YEAR: 1 / 12 };

async function livedSubscriptions(sandbox: Sandbox): Promise<Lived[]> {
  const get = async <T>(path: string) =>
    (
      (await (
        await fetch(`${sandbox.apiBaseUrl}${path}?clientId=${sandbox.credentials.clientId}`)
      ).json()) as {
        data: T;
      }
    ).data;
  const payments =
    await get<Array<{ paymentUid: string; metadata?: Record<string, string> }>>('/sandbox/payments');
  const accounts = new Map(payments.map((payment) => [payment.paymentUid, payment.metadata?.accountKey]));
  const offers = new Map(sandbox.config.offers.map((offer) => [offer.offerUid, offer]));
  return (await get<SandboxSubscription[]>('/sandbox/subscriptions')).map((subscription) => {
    const offer = offers.get(subscription.offerUid);
    if (!offer?.billingPeriod) throw new Error(`no subscription offer ${subscription.offerUid}`);
    const trial = (offer.trialDays ?? 0) > 0;
    const firstCharge = subscription.charges.find((charge) => charge.collected);
    const paid = trial ? (firstCharge?.at ?? null) : subscription.createdAt;
    const { unit, count } = offer.billingPeriod;
    return {
      uid: subscription.subscriptionUid,
      subscriber: `${accounts.get(subscription.paymentUid)}|${offer.productUid}`,
      offerUid: offer.offerUid,
      currency: offer.price.currency,
      monthlyValue: Math.round((offer.price.amount * (PER_MONTH[unit] as number)) / count),
      trialStartedAt: trial ? Date.parse(subscription.createdAt) : null,
      paidAt: paid === null ? null : Date.parse(paid),
      endedAt: subscription.endedAt === null ? null : Date.parse(subscription.endedAt),
      status: subscription.status,
    };
  });
}

function bucketOf(at: number, interval: Interval): number {
  const date = new Date(at);
  if (interval === 'month') return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  if (interval === 'day') return day;
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY;
}

function nextBucket(start: number, interval: Interval): number {
  const date = new Date(start);
  if (interval === 'month') return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  return start + (interval === 'week' ? 7 : 1) * DAY;
}

const livePaid = (one: Lived, at: number) =>
  one.paidAt !== null && one.paidAt < at && (one.endedAt === null || one.endedAt >= at);

/** The subscriber's paid subscriptions, first paid first. */
function paidBySubscriber(lived: Lived[]): Map<string, Lived[]> {
  const bySubscriber = new Map<string, Lived[]>();
  for (const one of lived) {
    if (one.paidAt === null) continue;
    bySubscriber.set(one.subscriber, [...(bySubscriber.get(one.subscriber) ?? []), one]);
  }
  for (const list of bySubscriber.values())
    list.sort((a, b) => (a.paidAt as number) - (b.paidAt as number) || (a.uid < b.uid ? -1 : 1));
  return bySubscriber;
}

/** Where the kit's view and the sandbox's records first part: the view, the row, both sides. */
export interface LifecycleMismatch {
  view: string;
  bucket: string;
  kit: unknown;
  sandbox: unknown;
}

function firstDifference(view: string, kit: Map<string, unknown>, truth: Map<string, unknown>) {
  for (const bucket of [...new Set([...kit.keys(), ...truth.keys()])].sort()) {
    if (JSON.stringify(kit.get(bucket)) !== JSON.stringify(truth.get(bucket)))
      return { view, bucket, kit: kit.get(bucket), sandbox: truth.get(bucket) };
  }
  return undefined;
}

/** Adds `value` to `numbers[index]`. */
function add(numbers: number[], index: number, value: number): void {
  numbers[index] = (numbers[index] ?? 0) + value;
}

function bucketStartsOf(from: string, to: Date, interval: Interval): { starts: number[]; end: number } {
  const starts: number[] = [];
  let start = bucketOf(Date.parse(from), interval);
  for (; start < to.getTime(); start = nextBucket(start, interval)) starts.push(start);
  return { starts, end: start };
}

/** Cohort by cohort and offer (see CohortTruth). */
function truthCohorts(bySubscriber: Map<string, Lived[]>, from: string, to: Date, now: number) {
  const truth = new Map<string, CohortTruth>();
  const firstMonth = bucketOf(Date.parse(from), 'month');
  for (const paid of bySubscriber.values()) {
    const first = paid[0] as Lived;
    const month = bucketOf(first.paidAt as number, 'month');
    if (month < firstMonth || month >= to.getTime()) continue;
    const key = `${new Date(month).toISOString()}|${first.offerUid}`;
    const [size, cells] = truth.get(key) ?? [0, []];
    let k = 0;
    for (let start = month; start <= now; start = nextBucket(start, 'month'), k++) {
      const end = nextBucket(start, 'month');
      const cell = cells[k] ?? [0, end <= now];
      if (paid.some((one) => livePaid(one, end))) cell[0]++;
      cells[k] = cell;
    }
    truth.set(key, [size + 1, cells]);
  }
  return truth;
}

/**
 * Per bucket, offer and currency: new (count, value), reactivated (count, value), churned (count,
 * value), net, and the recurring revenue as the bucket ended.
 */
function truthMovements(bySubscriber: Map<string, Lived[]>, from: string, to: Date, interval: Interval) {
  const truth = new Map<string, number[]>();
  const { starts, end } = bucketStartsOf(from, to, interval);
  const first = starts[0] as number;
  const row = (start: number, one: Lived) => {
    const key = `${new Date(start).toISOString()}|${one.offerUid}|${one.currency}`;
    const numbers = truth.get(key) ?? [0, 0, 0, 0, 0, 0, 0, 0];
    truth.set(key, numbers);
    return numbers;
  };
  for (const paid of bySubscriber.values()) {
    for (const [index, one] of paid.entries()) {
      const paidAt = one.paidAt as number;
      const returning = paid
        .slice(0, index)
        .some((before) => before.endedAt !== null && before.endedAt <= paidAt);
      if (paidAt >= first && paidAt < end) {
        const numbers = row(bucketOf(paidAt, interval), one);
        add(numbers, returning ? 2 : 0, 1);
        add(numbers, returning ? 3 : 1, one.monthlyValue);
        add(numbers, 6, one.monthlyValue);
      }
      if (one.endedAt !== null && one.endedAt >= first && one.endedAt < end) {
        const numbers = row(bucketOf(one.endedAt, interval), one);
        add(numbers, 4, 1);
        add(numbers, 5, one.monthlyValue);
        add(numbers, 6, -one.monthlyValue);
      }
      for (const start of starts) {
        if (livePaid(one, nextBucket(start, interval))) add(row(start, one), 7, one.monthlyValue);
      }
    }
  }
  for (const [key, numbers] of truth) if (numbers.every((n) => n === 0)) truth.delete(key);
  return truth;
}

/** Per bucket of the trial's start and offer: started, converted, in trial, cancelled, failed to pay. */
function truthFunnel(lived: Lived[], from: string, to: Date, interval: Interval) {
  const truth = new Map<string, number[]>();
  const { starts, end } = bucketStartsOf(from, to, interval);
  for (const one of lived) {
    const started = one.trialStartedAt;
    if (started === null || started < (starts[0] as number) || started >= end) continue;
    const key = `${new Date(bucketOf(started, interval)).toISOString()}|${one.offerUid}`;
    const numbers = truth.get(key) ?? [0, 0, 0, 0, 0];
    add(numbers, 0, 1);
    add(numbers, one.paidAt !== null ? 1 : one.endedAt === null ? 2 : one.status === 'SUSPENDED' ? 4 : 3, 1);
    truth.set(key, numbers);
  }
  return truth;
}

/** A cohort as the sandbox's records give it: its size, and per month end from its own, [live paid subscribers, month ended]. */
export type CohortTruth = [number, Array<[number, boolean]>];

/**
 * The lifecycle views worked out from the sandbox's records alone, from `from` to `to`: what the
 * kit's `cohorts`, `revenueMovements` and `trialFunnel` must answer (rows with nothing in them
 * left out), and the recurring revenue at any instant.
 */
export interface LifecycleTruth {
  /** The sandbox's clock as the records were read: a bucket ending after it is not over. */
  readonly now: number;
  /** By `<cohort month>|<offerUid>`, the cohorts with someone in them. */
  readonly cohorts: Map<string, CohortTruth>;
  /**
   * By `<bucket>|<offerUid>|<currency>`: new (count, value), reactivated (count, value), churned
   * (count, value), net, and the recurring revenue as the bucket ended.
   */
  movements(interval: Interval): Map<string, number[]>;
  /** By `<bucket>|<offerUid>`: trials started, converted, in trial, cancelled, failed to pay. */
  trialFunnel(interval: Interval): Map<string, number[]>;
  /** Per currency, the monthly value of the paid subscriptions live at `at` (of one offer, or all). */
  recurringRevenue(at: string, offerUid?: string): Map<string, number>;
}

export async function lifecycleTruth(sandbox: Sandbox, from: string, to: Date): Promise<LifecycleTruth> {
  const lived = await livedSubscriptions(sandbox);
  const now = sandbox.clock.now().getTime();
  const bySubscriber = paidBySubscriber(lived);
  return {
    now,
    cohorts: truthCohorts(bySubscriber, from, to, now),
    movements: (interval) => truthMovements(bySubscriber, from, to, interval),
    trialFunnel: (interval) => truthFunnel(lived, from, to, interval),
    recurringRevenue(at, offerUid) {
      const revenue = new Map<string, number>();
      for (const one of lived) {
        if ((offerUid !== undefined && one.offerUid !== offerUid) || !livePaid(one, Date.parse(at))) continue;
        revenue.set(one.currency, (revenue.get(one.currency) ?? 0) + one.monthlyValue);
      }
      return revenue;
    },
  };
}

/**
 * Compares `kit.cohorts`, and `kit.revenueMovements` and `kit.trialFunnel` by day, week and month,
 * from `from` to `to` with the sandbox's records; resolves to the first difference.
 */
export async function lifecycleMismatchOf(
  kit: Pick<DcbKit<EntitlementStore>, 'cohorts' | 'revenueMovements' | 'trialFunnel'>,
  sandbox: Sandbox,
  from: string,
  to: Date,
): Promise<LifecycleMismatch | undefined> {
  const truth = await lifecycleTruth(sandbox, from, to);
  const cohorts = await kit.cohorts({ from: new Date(from), to, interval: 'month' });
  const kitCohorts = new Map<string, unknown>();
  for (const row of cohorts.rows) {
    const cells = row.retained.map((cell) => [cell.subscribers, cell.complete]);
    if (row.size > 0) kitCohorts.set(`${row.start}|${row.offerUid}`, [row.size, cells]);
  }
  const cohortDifference = firstDifference('cohorts', kitCohorts, truth.cohorts);
  if (cohortDifference) return cohortDifference;
  for (const interval of ['day', 'week', 'month'] as const) {
    const movements = await kit.revenueMovements({ from: new Date(from), to, interval });
    const kitMoves = new Map<string, unknown>();
    for (const row of movements.rows) {
      const numbers = [
        row.newSubscriptions,
        row.newRevenue.amount,
        row.reactivatedSubscriptions,
        row.reactivatedRevenue.amount,
        row.churnedSubscriptions,
        row.churnedRevenue.amount,
        row.netRevenue.amount,
        row.recurringRevenue.amount,
      ];
      if (numbers.some((n) => n !== 0))
        kitMoves.set(`${row.start}|${row.offerUid}|${row.newRevenue.currency}`, numbers);
    }
    const moveDifference = firstDifference(
      `revenue movements by ${interval}`,
      kitMoves,
      truth.movements(interval),
    );
    if (moveDifference) return moveDifference;
    const funnel = await kit.trialFunnel({ from: new Date(from), to, interval });
    const kitFunnel = new Map<string, unknown>();
    for (const row of funnel.rows) {
      const numbers = [row.started, row.converted, row.inTrial, row.canceled, row.failedToPay];
      if (row.started > 0) kitFunnel.set(`${row.start}|${row.offerUid}`, numbers);
    }
    const funnelDifference = firstDifference(
      `trial funnel by ${interval}`,
      kitFunnel,
      truth.trialFunnel(interval),
    );
    if (funnelDifference) return funnelDifference;
  }
  return undefined;
}
