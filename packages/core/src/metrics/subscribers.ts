import type { SubscriptionLifecycle } from './subscription-lifecycle.js';

/** A subscription whose first charge was collected, placed in its subscriber's life. */
export interface PaidSubscription {
  readonly lifecycle: SubscriptionLifecycle;
  /** Milliseconds. */
  readonly paidAt: number;
  /** Milliseconds; undefined while it lives. */
  readonly endedAt: number | undefined;
  /**
   * A returning subscriber's: the account held a paid subscription of the product before, which had
   * ended when this one's first charge was collected (a reactivation, as RevenueCat and ChartMogul
   * count one).
   */
  readonly returning: boolean;
}

/** A subscriber (one account's subscriptions of one product) and their paid subscriptions, first paid first. */
export interface Subscriber {
  readonly accountKey: string;
  readonly productUid: string;
  readonly paid: readonly PaidSubscription[];
}

/**
 * The subscribers of the lifecycle records: each account's subscriptions of a product, those that
 * were paid ordered by their first charge (then by uid, so that the order never depends on the
 * store's). A record that ended before it was paid (a read's estimate) is taken as ended when paid.
 */
export function subscribersOf(lifecycles: Iterable<SubscriptionLifecycle>): Subscriber[] {
  const grouped = new Map<string, SubscriptionLifecycle[]>();
  for (const one of lifecycles) {
    if (one.firstPaidAt === undefined) continue;
    const id = `${one.accountKey}\n${one.productUid}`;
    const list = grouped.get(id) ?? [];
    list.push(one);
    grouped.set(id, list);
  }
  const subscribers: Subscriber[] = [];
  for (const list of grouped.values()) {
    const ordered = list
      .map((lifecycle) => {
        const paidAt = Date.parse((lifecycle.firstPaidAt as { at: string }).at);
        const ended = lifecycle.endedAt === undefined ? undefined : Date.parse(lifecycle.endedAt.at);
        return { lifecycle, paidAt, endedAt: ended === undefined ? undefined : Math.max(ended, paidAt) };
      })
      .sort(
        (a, b) => a.paidAt - b.paidAt || compare(a.lifecycle.subscriptionUid, b.lifecycle.subscriptionUid),
      );
    const paid = ordered.map((one, index) => ({
      ...one,
      returning: ordered
        .slice(0, index)
        .some((before) => before.endedAt !== undefined && before.endedAt <= one.paidAt),
    }));
    const first = ordered[0]?.lifecycle as SubscriptionLifecycle;
    subscribers.push({ accountKey: first.accountKey, productUid: first.productUid, paid });
  }
  return subscribers;
}

/** Whether the subscription gives its subscriber a live paid subscription at `at` (ms): paid before, not ended by then. */
export function livePaidAt(one: PaidSubscription, at: number): boolean {
  return one.paidAt < at && (one.endedAt === undefined || one.endedAt >= at);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
