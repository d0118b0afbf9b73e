import type { OfferDefinition } from '../schemas/offer.js';
import type { Money } from '../schemas/primitives.js';
import type { MetricsRow } from './metrics-row.js';

/**
 * One headline figure of a period, beside the same figure over the period of the same length just
 * before it. A rate is a fraction (0.25 is 25 %); `null` where it measures nothing (no renewal was
 * due, no trial ended), never a made-up 0.
 */
export interface HeadlineFigure {
  readonly value: number | null;
  readonly previous: number | null;
}

/** Recurring revenue per month in one currency, now and as the previous period ended. */
export interface RecurringRevenueFigure {
  readonly currency: string;
  /** Minor units of `currency`. */
  readonly value: number;
  readonly previous: number;
}

/**
 * The figures an operator reads first (docs/operations.md, "Headline figures", defines each and
 * the published definition it follows). Every figure covers the offers of the report's rows.
 */
export interface MetricsTotals {
  /** Subscriptions giving access as the period ended. */
  readonly activeSubscribers: HeadlineFigure;
  /** The monthly value of the paid subscriptions live as the period ended, per currency. */
  readonly recurringRevenue: readonly RecurringRevenueFigure[];
  /** Of the trials that started in the period and have ended, the share that converted. */
  readonly trialConversionRate: HeadlineFigure;
  /** Subscriptions that ended in the period, over those live as it began and those it started. */
  readonly churnRate: HeadlineFigure;
  /** Charges due in the period (renewals, trials' first charges) collected on their first attempt. */
  readonly firstAttemptCollectionRate: HeadlineFigure;
  /** Charges collected from grace in the period, over the renewals that failed into grace in it. */
  readonly graceRecoveryRate: HeadlineFigure;
  /** Of the checkouts started in the period that have ended, the share that ended paid. */
  readonly checkoutConversionRate: HeadlineFigure;
}

/** How the trials that started in a period have turned out so far. */
export interface TrialOutcomes {
  readonly started: number;
  readonly converted: number;
  /** Still in their trial as the figures were asked: neither converted nor ended. */
  readonly stillInTrial: number;
}

/** How the checkouts that started in a period have ended so far. */
export interface CheckoutOutcomes {
  readonly started: number;
  readonly succeeded: number;
  /** Not ended yet: neither paid, refused, failed, expired nor cancelled. */
  readonly pending: number;
}

/** What one period's figures are made of: its rows, and what other views tell of it, when known. */
export interface PeriodNumbers {
  /** The period's rows, every bucket of the offers the figures cover, bucket by bucket. */
  readonly rows: readonly MetricsRow[];
  /** Subscriptions giving access as the period began. */
  readonly liveAtStart: number;
  /** Absent when the store keeps no subscription lifecycles: the trial conversion rate is then null. */
  readonly trials?: TrialOutcomes | undefined;
  /** Absent when the store keeps no checkouts: the checkout conversion rate is then null. */
  readonly checkouts?: CheckoutOutcomes | undefined;
  /** Absent when the store keeps no subscription lifecycles: no recurring revenue is told. */
  readonly recurringRevenue?: readonly Money[] | undefined;
}

type Figures = { -readonly [K in Exclude<keyof MetricsTotals, 'recurringRevenue'>]: number | null };

/**
 * The headline figures of a period beside the previous one. Pure. `offers` tells which offers
 * suspend at once when a charge fails (no grace): their suspensions are first attempts that failed.
 */
export function metricsTotals(
  current: PeriodNumbers,
  previous: PeriodNumbers,
  offers: readonly OfferDefinition[],
): MetricsTotals {
  const withoutGrace = new Set(
    offers.filter((offer) => offer.gracePolicy.days === 0).map((offer) => offer.offerUid),
  );
  const now = figuresOf(current, withoutGrace);
  const before = figuresOf(previous, withoutGrace);
  const pair = (name: keyof Figures): HeadlineFigure => ({ value: now[name], previous: before[name] });
  return {
    activeSubscribers: pair('activeSubscribers'),
    recurringRevenue: revenueBeside(current.recurringRevenue, previous.recurringRevenue),
    trialConversionRate: pair('trialConversionRate'),
    churnRate: pair('churnRate'),
    firstAttemptCollectionRate: pair('firstAttemptCollectionRate'),
    graceRecoveryRate: pair('graceRecoveryRate'),
    checkoutConversionRate: pair('checkoutConversionRate'),
  };
}

function figuresOf(period: PeriodNumbers, withoutGrace: ReadonlySet<string>): Figures {
  const sum = { started: 0, ended: 0, collected: 0, recovered: 0, intoGrace: 0, failed: 0 };
  // Rows come bucket by bucket: the last row's bucket is the period's last.
  const lastStart = period.rows.at(-1)?.start;
  let live = 0;
  for (const row of period.rows) {
    if (row.start === lastStart) live += row.activeSubscribers;
    const { canceled, expired, suspended, revoked } = row.churned;
    sum.started += row.trialsStarted + row.newSubscriptions;
    sum.ended += canceled + expired + suspended + revoked;
    sum.collected += row.renewalsCollected + row.trialsConverted;
    sum.recovered += row.graceRecovered;
    sum.intoGrace += row.renewalsFailed;
    // With no grace, a charge that fails suspends at once: that is its failed first attempt.
    sum.failed += row.renewalsFailed + (withoutGrace.has(row.offerUid) ? suspended : 0);
  }
  const firstAttempt = sum.collected - sum.recovered;
  const { trials, checkouts } = period;
  return {
    activeSubscribers: period.rows.length === 0 ? period.liveAtStart : live,
    churnRate: rate(sum.ended, period.liveAtStart + sum.started),
    firstAttemptCollectionRate: rate(firstAttempt, firstAttempt + sum.failed),
    graceRecoveryRate: rate(sum.recovered, sum.intoGrace),
    trialConversionRate: trials ? rate(trials.converted, trials.started - trials.stillInTrial) : null,
    checkoutConversionRate: checkouts
      ? rate(checkouts.succeeded, checkouts.started - checkouts.pending)
      : null,
  };
}

function rate(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

function revenueBeside(
  current: readonly Money[] | undefined,
  previous: readonly Money[] | undefined,
): RecurringRevenueFigure[] {
  if (current === undefined) return [];
  const figures = new Map<string, { currency: string; value: number; previous: number }>();
  const at = (currency: string) => {
    const figure = figures.get(currency) ?? { currency, value: 0, previous: 0 };
    figures.set(currency, figure);
    return figure;
  };
  for (const money of current) at(money.currency).value += money.amount;
  for (const money of previous ?? []) at(money.currency).previous += money.amount;
  return [...figures.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}
