import type { CheckoutKind, MetricKind } from './metric-entry.js';
import type { MetricsRow } from './metrics-row.js';

/** The kinds of fact a `kit.metrics` row counts: the checkout funnel's are `kit.checkoutFunnel`'s. */
export type ReportKind = Exclude<MetricKind, CheckoutKind>;

/** The charts of `kit.metrics` on a Business page, in the page's order. */
export const METRICS_CHARTS = ['active', 'growth', 'renewals', 'churn', 'collected'] as const;
export type MetricsChart = (typeof METRICS_CHARTS)[number];

/** The OpenTelemetry counter a fact adds to, and what tells its facts apart there. */
export interface MeasureCounter {
  readonly counter: 'dcbkit.renewals' | 'dcbkit.units' | 'dcbkit.subscriptions.ended';
  readonly attributes: Readonly<Record<string, string>>;
}

/**
 * One number of a `kit.metrics` row, declared once: the report fills it, and a page, its CSV,
 * the OpenTelemetry counters and docs/operations.md's table all derive theirs from here. A new
 * number is one more entry (and its kind, its row field, its label in a page's messages).
 */
export interface MetricsMeasure {
  /** Its CSV column, and the key of its label on a page (`ops.business.series.<column>`). */
  readonly column: string;
  /** Where it is in a row, as docs/operations.md's table names it (`churned.canceled`). */
  readonly field: string;
  /** What it adds up: facts of a kind, live changes (active subscribers) or money collected. */
  readonly counts: ReportKind | 'live' | 'money';
  /** The number in a row (minor units, for money). */
  readonly of: (row: MetricsRow) => number;
  /** The chart of the page it is drawn in; none for a number only the CSV carries. */
  readonly chart: MetricsChart | undefined;
  /** The counter that counts its facts as they are recorded, when one does. */
  readonly counter: MeasureCounter | undefined;
  /** What it counts, as docs/operations.md's table words it (a test holds the two equal). */
  readonly means: string;
}

const counted = (counter: MeasureCounter['counter'], key: string, value: string): MeasureCounter => ({
  counter,
  attributes: { [key]: value },
});

/** Every number of a row, in the order a page draws them and its CSV lists them. */
export const METRICS_MEASURES: readonly MetricsMeasure[] = [
  {
    column: 'activeSubscribers',
    field: 'activeSubscribers',
    counts: 'live',
    of: (row) => row.activeSubscribers,
    chart: 'active',
    counter: undefined,
    means:
      'subscriptions giving access as the bucket ended: trialing, active, cancelled at period end, or in a grace with access',
  },
  {
    column: 'trialsStarted',
    field: 'trialsStarted',
    counts: 'trial_started',
    of: (row) => row.trialsStarted,
    chart: 'growth',
    counter: undefined,
    means: 'free trials begun',
  },
  {
    column: 'trialsConverted',
    field: 'trialsConverted',
    counts: 'trial_converted',
    of: (row) => row.trialsConverted,
    chart: 'growth',
    counter: counted('dcbkit.renewals', 'dcbkit.result', 'trial_converted'),
    means: 'first charges after a trial, collected',
  },
  {
    column: 'newSubscriptions',
    field: 'newSubscriptions',
    counts: 'new_subscription',
    of: (row) => row.newSubscriptions,
    chart: 'growth',
    counter: undefined,
    means: 'subscriptions that started paid, with no trial',
  },
  {
    column: 'renewalsCollected',
    field: 'renewalsCollected',
    counts: 'renewal_collected',
    of: (row) => row.renewalsCollected,
    chart: 'renewals',
    counter: counted('dcbkit.renewals', 'dcbkit.result', 'collected'),
    means: 'renewals the operator collected, on time or late',
  },
  {
    column: 'renewalsFailed',
    field: 'renewalsFailed',
    counts: 'renewal_failed',
    of: (row) => row.renewalsFailed,
    chart: 'renewals',
    counter: counted('dcbkit.renewals', 'dcbkit.result', 'failed'),
    means: 'renewals (and trials’ first charges) not collected: grace began',
  },
  {
    column: 'graceRecovered',
    field: 'graceRecovered',
    counts: 'grace_recovered',
    of: (row) => row.graceRecovered,
    chart: 'renewals',
    counter: counted('dcbkit.renewals', 'dcbkit.result', 'grace_recovered'),
    means: 'charges collected after their renewal had failed',
  },
  {
    column: 'churnedCanceled',
    field: 'churned.canceled',
    counts: 'churn_canceled',
    of: (row) => row.churned.canceled,
    chart: 'churn',
    counter: counted('dcbkit.subscriptions.ended', 'dcbkit.cause', 'canceled'),
    means: 'subscriptions cancelled now',
  },
  {
    column: 'churnedExpired',
    field: 'churned.expired',
    counts: 'churn_expired',
    of: (row) => row.churned.expired,
    chart: 'churn',
    counter: counted('dcbkit.subscriptions.ended', 'dcbkit.cause', 'expired'),
    means: 'subscriptions that ended at the end of a period cancelled before',
  },
  {
    column: 'churnedSuspended',
    field: 'churned.suspended',
    counts: 'churn_suspended',
    of: (row) => row.churned.suspended,
    chart: 'churn',
    counter: counted('dcbkit.subscriptions.ended', 'dcbkit.cause', 'suspended'),
    means: 'subscriptions that ended for want of payment (a trial never paid included)',
  },
  {
    column: 'churnedRevoked',
    field: 'churned.revoked',
    counts: 'churn_revoked',
    of: (row) => row.churned.revoked,
    chart: 'churn',
    counter: counted('dcbkit.subscriptions.ended', 'dcbkit.cause', 'revoked'),
    means: 'access the service revoked without a subscription cause',
  },
  {
    column: 'unitsSold',
    field: 'unitsSold',
    counts: 'unit_sold',
    of: (row) => row.unitsSold,
    chart: undefined,
    counter: counted('dcbkit.units', 'dcbkit.movement', 'sold'),
    means: 'CONSUMABLE units bought',
  },
  {
    column: 'unitsSpent',
    field: 'unitsSpent',
    counts: 'unit_spent',
    of: (row) => row.unitsSpent,
    chart: undefined,
    counter: counted('dcbkit.units', 'dcbkit.movement', 'spent'),
    means: 'units your subscribers used',
  },
  {
    column: 'unlocksSold',
    field: 'unlocksSold',
    counts: 'unlock_sold',
    of: (row) => row.unlocksSold,
    chart: undefined,
    counter: undefined,
    means: 'NON_CONSUMABLE unlocks bought',
  },
  {
    column: 'collectedMinorUnits',
    field: 'collected',
    counts: 'money',
    of: (row) => row.collected.amount,
    chart: 'collected',
    counter: undefined,
    means: 'money collected, in minor units of the offer’s currency',
  },
];
