/**
 * What the business view counts. Each kind is one fact about a subscriber or a purchase, written
 * when the kit decides on what it saw (a webhook, a read of the service, a spent unit):
 * - `trial_started`: a free trial began;
 * - `trial_converted`: the first charge after a trial was collected;
 * - `new_subscription`: a subscription started paid, with no trial;
 * - `renewal_collected`: a renewal's charge was collected (on time or late, in grace);
 * - `renewal_failed`: a renewal (or a trial's first charge) could not be collected: grace began;
 * - `grace_recovered`: a charge was collected after its renewal had failed;
 * - `churn_canceled`, `churn_expired`, `churn_suspended`: a subscription ended, by an immediate
 *   cancellation, at the end of a period cancelled before, or for want of payment;
 * - `churn_revoked`: access ended by a revocation the service gave no subscription cause for;
 * - `unit_sold`, `unit_spent`: a CONSUMABLE unit bought, used;
 * - `unlock_sold`: a NON_CONSUMABLE bought;
 * - `checkout_started`: the partner routes created a payment (a checkout of the funnel);
 * - `checkout_succeeded`, `checkout_refused`, `checkout_failed`, `checkout_expired`,
 *   `checkout_canceled`: how such a checkout ended (`checkout-outcome.ts`), dated when it started
 *   so that it counts in the start's bucket; `detail` is the service's code of a refusal or failure.
 */
export const METRIC_KINDS = [
  'trial_started',
  'trial_converted',
  'new_subscription',
  'renewal_collected',
  'renewal_failed',
  'grace_recovered',
  'churn_canceled',
  'churn_expired',
  'churn_suspended',
  'churn_revoked',
  'unit_sold',
  'unit_spent',
  'unlock_sold',
  'checkout_started',
  'checkout_succeeded',
  'checkout_refused',
  'checkout_failed',
  'checkout_expired',
  'checkout_canceled',
] as const;

export type MetricKind = (typeof METRIC_KINDS)[number];

/** The checkout funnel's kinds: `kit.checkoutFunnel` counts them, `kit.metrics` leaves them out. */
export type CheckoutKind = Extract<MetricKind, `checkout_${string}`>;

export const CHECKOUT_KINDS: readonly CheckoutKind[] = /* @__PURE__ */ METRIC_KINDS.filter(
  (kind): kind is CheckoutKind => kind.startsWith('checkout_'),
);

/** How a fact moves the number of live subscribers of its offer. */
export type LiveChange = -1 | 0 | 1;

/**
 * One fact for the business view. Facts are kept past the history's pruning (as daily totals),
 * and a fact counts once however often it is seen: its `key` names what happened, not the
 * delivery that told it (`paid:<subscriptionUid>:<periodEnd>` for a collected period, whether a
 * webhook, its duplicate or a reconciliation's read reports it).
 */
export interface MetricEntry {
  readonly key: string;
  readonly kind: MetricKind;
  readonly offerUid: string;
  readonly productUid: string;
  /** When it happened (ISO 8601): its UTC day is where it counts, whenever it was delivered. */
  readonly occurredAt: string;
  readonly count: number;
  /** Money collected, in minor units of `currency`; 0 when nothing was charged. */
  readonly amount: number;
  /** ISO 4217: the collected amount's, or the offer's price's when nothing was charged. */
  readonly currency: string;
  /** +1 when a subscription starts giving access, -1 when it stops, 0 otherwise. */
  readonly live: LiveChange;
  /**
   * Told by a read of the service, which knows a state but not always when it came about (a
   * cancellation now, a charge recovered in grace): its day is the best the read could tell. The
   * first entry of the same key that is not provisional (the event itself, replayed after an
   * outage) moves it to that entry's day; nothing else about it changes, and it still counts once.
   */
  readonly provisional?: true;
  /**
   * What sets this fact apart within its kind, kept apart in the daily totals: the service's code
   * of a checkout's refusal or failure (`RSK-101`, `PAY-101`…). Absent for the other kinds.
   */
  readonly detail?: string;
  /**
   * A subscription's fact: the subscription and the account it belongs to, so that the store's
   * lifecycle records (SubscriptionLifecycle) can follow each subscription and each subscriber
   * (the account and product) from the facts. Absent for purchases and spent units.
   */
  readonly subscriptionUid?: string;
  readonly accountKey?: string;
  /** A subscription's fact: its offer's price as a month's worth (monthlyValueOf), in `currency`. */
  readonly monthlyValue?: number;
}

export function isMetricKind(value: unknown): value is MetricKind {
  return typeof value === 'string' && (METRIC_KINDS as readonly string[]).includes(value);
}
