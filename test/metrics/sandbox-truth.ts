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

interface SandboxSubscription {
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

const monthOf = (iso: string) => `${iso.slice(0, 7)}-01T00:00:00.000Z`;

/**
 * Month by month and offer, what the sandbox itself recorded: its subscriptions (created, charged
 * at each attempt, ended), the payments its events say succeeded, and the units the shop spent.
 * Nothing here reads the kit.
 */
export async function sandboxTruth(
  sandbox: Sandbox,
  months: readonly string[],
  spent: ReadonlyArray<{ at: string; offerUid: string }>,
): Promise<Map<string, Counted>> {
  const offers = new Map(sandbox.config.offers.map((offer) => [offer.offerUid, offer]));
  const truth = new Map<string, Counted>();
  const at = (iso: string, offerUid: string): Counted => {
    const key = `${monthOf(iso)}|${offerUid}`;
    const row = truth.get(key) ?? empty(offerUid);
    truth.set(key, row);
    return row;
  };
  const answer = await fetch(
    `${sandbox.apiBaseUrl}/sandbox/subscriptions?clientId=${sandbox.credentials.clientId}`,
  );
  const subscriptions = ((await answer.json()) as { data: SandboxSubscription[] }).data;
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
    for (const month of months) {
      const end = nextMonth(month);
      const live =
        subscription.createdAt < end && (subscription.endedAt === null || subscription.endedAt >= end);
      if (live) at(month, offer.offerUid).activeSubscribers++;
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

function nextMonth(monthStart: string): string {
  const date = new Date(monthStart);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)).toISOString();
}
