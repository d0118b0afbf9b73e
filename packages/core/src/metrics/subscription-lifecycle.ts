import type { MetricEntry, MetricKind } from './metric-entry.js';

/** Why a subscription ended: cancelled now, expired after a cancellation, suspended for want of payment, or revoked. */
export type LifecycleEndCause = 'canceled' | 'expired' | 'suspended' | 'revoked';

/**
 * A moment of a subscription's life as the kit learnt it. A read of the service dates what it finds
 * as well as it can (MetricEntry.provisional); the event itself, when it lands, says when.
 */
export interface LifecycleTime {
  /** ISO 8601 UTC. */
  readonly at: string;
  /** True when only a read told it: any time an event told wins over it. */
  readonly provisional: boolean;
}

/**
 * One subscription's life, as the business views need it (cohorts, recurring revenue movements,
 * the trial funnel): who holds it (the account and product: the subscriber), what it is worth a
 * month, and when its trial began, its first charge was collected and it ended. Written from the
 * facts the kit records (lifecyclesOfFacts) and merged order-free (mergeLifecycles): duplicates
 * and deliveries in any order give the same record.
 */
export interface SubscriptionLifecycle {
  readonly subscriptionUid: string;
  readonly accountKey: string;
  readonly productUid: string;
  readonly offerUid: string;
  readonly currency: string;
  /** The offer's price as a month's worth, in minor units of `currency` (monthlyValueOf). */
  readonly monthlyValue: number;
  readonly trialStartedAt?: LifecycleTime | undefined;
  /** The first charge collected: a paid start, or a trial's conversion. */
  readonly firstPaidAt?: LifecycleTime | undefined;
  readonly endedAt?: LifecycleTime | undefined;
  /** With `endedAt`. */
  readonly endCause?: LifecycleEndCause | undefined;
}

const END_CAUSES: Partial<Record<MetricKind, LifecycleEndCause>> = {
  churn_canceled: 'canceled',
  churn_expired: 'expired',
  churn_suspended: 'suspended',
  churn_revoked: 'revoked',
};

/**
 * Kinds that prove a charge collected. A renewal does too: when the first charge's own fact was
 * never seen (the kit came later), the first renewal seen is the earliest paid moment known, and
 * the earlier one wins whenever it is told.
 */
const PAID_KINDS: ReadonlySet<MetricKind> = new Set([
  'new_subscription',
  'trial_converted',
  'renewal_collected',
]);

/**
 * The lifecycle records that a decision's facts tell, one per subscription (merged): facts without
 * a subscription or an account (purchases, units, facts of a custom caller) tell none. Pure.
 */
export function lifecyclesOfFacts(entries: readonly MetricEntry[]): SubscriptionLifecycle[] {
  const found = new Map<string, SubscriptionLifecycle>();
  for (const entry of entries) {
    const one = lifecycleOfFact(entry);
    if (one === undefined) continue;
    const known = found.get(one.subscriptionUid);
    found.set(one.subscriptionUid, known === undefined ? one : mergeLifecycles(known, one));
  }
  return [...found.values()];
}

function lifecycleOfFact(entry: MetricEntry): SubscriptionLifecycle | undefined {
  const { subscriptionUid, accountKey } = entry;
  if (subscriptionUid === undefined || accountKey === undefined) return undefined;
  const time: LifecycleTime = { at: entry.occurredAt, provisional: entry.provisional === true };
  const cause = END_CAUSES[entry.kind];
  // grace_recovered's own charge comes with its period's fact; the rest move no lifecycle time.
  const moment: Partial<SubscriptionLifecycle> =
    entry.kind === 'trial_started'
      ? { trialStartedAt: time }
      : PAID_KINDS.has(entry.kind)
        ? { firstPaidAt: time }
        : cause !== undefined
          ? { endedAt: time, endCause: cause }
          : {};
  return {
    subscriptionUid,
    accountKey,
    productUid: entry.productUid,
    offerUid: entry.offerUid,
    currency: entry.currency,
    monthlyValue: entry.monthlyValue ?? 0,
    ...moment,
  };
}

/**
 * Two records of one subscription as one, whichever came first: each time the earliest of those an
 * event told (a read's only when no event told it), the end's cause with its time (on a tie, the
 * first cause in alphabetical order). Commutative, associative and idempotent, so that duplicates
 * and reordered deliveries give the same record. The other fields are the subscription's own and
 * never differ; `a`'s are kept.
 */
export function mergeLifecycles(a: SubscriptionLifecycle, b: SubscriptionLifecycle): SubscriptionLifecycle {
  const ended = firstEnd(a, b);
  return {
    subscriptionUid: a.subscriptionUid,
    accountKey: a.accountKey,
    productUid: a.productUid,
    offerUid: a.offerUid,
    currency: a.currency,
    monthlyValue: a.monthlyValue,
    ...optional('trialStartedAt', earliest(a.trialStartedAt, b.trialStartedAt)),
    ...optional('firstPaidAt', earliest(a.firstPaidAt, b.firstPaidAt)),
    ...optional('endedAt', ended?.endedAt),
    ...optional('endCause', ended?.endCause),
  };
}

/** Whether `a` wins over `b`: told by an event rather than a read, then earlier. */
export function precedes(a: LifecycleTime, b: LifecycleTime): boolean {
  if (a.provisional !== b.provisional) return !a.provisional;
  return a.at < b.at;
}

function earliest(a: LifecycleTime | undefined, b: LifecycleTime | undefined): LifecycleTime | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return precedes(b, a) ? b : a;
}

function firstEnd(a: SubscriptionLifecycle, b: SubscriptionLifecycle): SubscriptionLifecycle | undefined {
  if (a.endedAt === undefined) return b.endedAt === undefined ? undefined : b;
  if (b.endedAt === undefined) return a;
  if (precedes(b.endedAt, a.endedAt)) return b;
  if (precedes(a.endedAt, b.endedAt)) return a;
  return (b.endCause ?? '') < (a.endCause ?? '') ? b : a;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
