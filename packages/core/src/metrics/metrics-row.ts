import type { Money } from '../schemas/primitives.js';

/** One bucket of one offer (and currency: several currencies stay apart). */
export interface MetricsRow {
  /** The bucket's first instant, ISO 8601 UTC. */
  readonly start: string;
  readonly offerUid: string;
  readonly productUid: string;
  /** Subscriptions giving access as the bucket ended (trialing, active, cancelled at period end, or in a grace with access). */
  readonly activeSubscribers: number;
  readonly trialsStarted: number;
  readonly trialsConverted: number;
  /** Subscriptions that started paid, with no trial. */
  readonly newSubscriptions: number;
  readonly renewalsCollected: number;
  /** Renewals (and trials' first charges) not collected: grace began. */
  readonly renewalsFailed: number;
  readonly graceRecovered: number;
  readonly churned: {
    readonly canceled: number;
    readonly expired: number;
    readonly suspended: number;
    readonly revoked: number;
  };
  readonly unitsSold: number;
  readonly unitsSpent: number;
  readonly unlocksSold: number;
  /** What the operator collected: the offer's price for a full charge, `amountCollected` where the service sent it. */
  readonly collected: Money;
}
