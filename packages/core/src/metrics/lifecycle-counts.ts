import { utcDayOf } from './metric-day.js';
import { livePaidAt, subscribersOf } from './subscribers.js';
import type { SubscriptionLifecycle } from './subscription-lifecycle.js';

/**
 * What a store answers for the views, as totals a SQL store makes with one GROUP BY each over its
 * lifecycle records, so that a year at a million subscribers reads a few thousand rows. The
 * functions below are the definition: a store that keeps the records as a list (memoryStore) calls
 * them, and `runLifecycleConformance` holds a store's reads to them.
 */

/** First days: `YYYY-MM-DD` (a month's is its first day), from (included) to (excluded). */
export interface LifecycleDaysQuery {
  readonly from: string;
  readonly to: string;
}

/** The paid subscriptions of one cohort that began and ended in the same months. */
export interface CohortCount {
  /** The cohort: the month (`YYYY-MM-01`, UTC) of its subscribers' first paid charge. */
  readonly cohortMonth: string;
  /** The offer of the subscription that made the cohort's subscribers' first paid charge. */
  readonly offerUid: string;
  readonly productUid: string;
  /** The month of these subscriptions' own first paid charge. */
  readonly paidMonth: string;
  /** The month of their end (never before `paidMonth`); null while they live. */
  readonly endMonth: string | null;
  readonly subscriptions: number;
  /** Of them, the subscribers' first paid subscriptions: summed over a cohort, its size. */
  readonly firsts: number;
}

/** The recurring revenue that moved on one day, for one offer in one currency. */
export interface RevenueMoveDay {
  readonly day: string;
  readonly offerUid: string;
  readonly productUid: string;
  readonly currency: string;
  /** `new` and `reactivated` (a returning subscriber's) on the day of the first paid charge; `churned` on the day of the end. */
  readonly kind: 'new' | 'reactivated' | 'churned';
  readonly subscriptions: number;
  /** Their monthly values, summed. */
  readonly monthlyValue: number;
}

export interface RevenueMoves {
  readonly days: readonly RevenueMoveDay[];
  /** Per offer and currency: the monthly value of the paid subscriptions live as `from` began. */
  readonly liveBefore: ReadonlyArray<{
    readonly offerUid: string;
    readonly productUid: string;
    readonly currency: string;
    readonly monthlyValue: number;
  }>;
}

export type TrialOutcome = 'converted' | 'inTrial' | 'canceled' | 'failedToPay';

/** The trials begun on one day for one offer that had one outcome (so far). */
export interface TrialOutcomeDay {
  readonly day: string;
  readonly offerUid: string;
  readonly productUid: string;
  readonly outcome: TrialOutcome;
  readonly trials: number;
}

/**
 * The paid subscriptions of the subscribers whose cohort (the month of their first paid charge)
 * is in the query's months, counted by cohort, cohort offer, paid month and end month.
 */
export function cohortCountsOf(
  lifecycles: Iterable<SubscriptionLifecycle>,
  query: LifecycleDaysQuery,
): CohortCount[] {
  const counts = new Map<string, { -readonly [K in keyof CohortCount]: CohortCount[K] }>();
  for (const { paid } of subscribersOf(lifecycles)) {
    const [first] = paid;
    if (first === undefined) continue;
    const cohortMonth = monthOf(first.paidAt);
    if (cohortMonth < query.from || cohortMonth >= query.to) continue;
    for (const one of paid) {
      const paidMonth = monthOf(one.paidAt);
      const endMonth = one.endedAt === undefined ? null : monthOf(one.endedAt);
      const id = `${cohortMonth}\n${first.lifecycle.offerUid}\n${paidMonth}\n${endMonth}`;
      const count = counts.get(id) ?? {
        cohortMonth,
        offerUid: first.lifecycle.offerUid,
        productUid: first.lifecycle.productUid,
        paidMonth,
        endMonth,
        subscriptions: 0,
        firsts: 0,
      };
      count.subscriptions++;
      if (one === first) count.firsts++;
      counts.set(id, count);
    }
  }
  return [...counts.values()];
}

/** The recurring revenue's moves on the query's days, and what was live as they began. */
export function revenueMovesOf(
  lifecycles: Iterable<SubscriptionLifecycle>,
  query: LifecycleDaysQuery,
): RevenueMoves {
  const days = new Map<string, { -readonly [K in keyof RevenueMoveDay]: RevenueMoveDay[K] }>();
  const live = new Map<
    string,
    { offerUid: string; productUid: string; currency: string; monthlyValue: number }
  >();
  const from = Date.parse(`${query.from}T00:00:00.000Z`);
  const move = (at: number, kind: RevenueMoveDay['kind'], lifecycle: SubscriptionLifecycle) => {
    const day = dayOf(at);
    if (day < query.from || day >= query.to) return;
    const { offerUid, productUid, currency, monthlyValue } = lifecycle;
    const id = `${day}\n${offerUid}\n${productUid}\n${currency}\n${kind}`;
    const total = days.get(id) ?? {
      day,
      offerUid,
      productUid,
      currency,
      kind,
      subscriptions: 0,
      monthlyValue: 0,
    };
    total.subscriptions++;
    total.monthlyValue += monthlyValue;
    days.set(id, total);
  };
  for (const { paid } of subscribersOf(lifecycles)) {
    for (const one of paid) {
      move(one.paidAt, one.returning ? 'reactivated' : 'new', one.lifecycle);
      if (one.endedAt !== undefined) move(one.endedAt, 'churned', one.lifecycle);
      if (!livePaidAt(one, from)) continue;
      const { offerUid, productUid, currency, monthlyValue } = one.lifecycle;
      const id = `${offerUid}\n${productUid}\n${currency}`;
      const total = live.get(id) ?? { offerUid, productUid, currency, monthlyValue: 0 };
      total.monthlyValue += monthlyValue;
      live.set(id, total);
    }
  }
  return { days: [...days.values()], liveBefore: [...live.values()] };
}

/** The trials begun on the query's days, by what each became so far. */
export function trialOutcomesOf(
  lifecycles: Iterable<SubscriptionLifecycle>,
  query: LifecycleDaysQuery,
): TrialOutcomeDay[] {
  const outcomes = new Map<string, { -readonly [K in keyof TrialOutcomeDay]: TrialOutcomeDay[K] }>();
  for (const one of lifecycles) {
    if (one.trialStartedAt === undefined) continue;
    const day = utcDayOf(one.trialStartedAt.at);
    if (day < query.from || day >= query.to) continue;
    const outcome = trialOutcomeOf(one);
    const id = `${day}\n${one.offerUid}\n${one.productUid}\n${outcome}`;
    const total = outcomes.get(id) ?? {
      day,
      offerUid: one.offerUid,
      productUid: one.productUid,
      outcome,
      trials: 0,
    };
    total.trials++;
    outcomes.set(id, total);
  }
  return [...outcomes.values()];
}

/**
 * A trial's outcome so far: converted once its first charge was collected; ended before any charge,
 * failed to pay when suspended for want of payment (`subscription.failed`, or its grace ran out),
 * cancelled otherwise (now, at the trial's end, or revoked); still in trial while neither.
 */
export function trialOutcomeOf(one: SubscriptionLifecycle): TrialOutcome {
  if (one.firstPaidAt !== undefined) return 'converted';
  if (one.endedAt === undefined) return 'inTrial';
  return one.endCause === 'suspended' ? 'failedToPay' : 'canceled';
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const monthOf = (ms: number) => `${new Date(ms).toISOString().slice(0, 7)}-01`;
