import type { Money } from '@dcbkit/core';
import type { SubscriptionRecord } from '../records/subscription-record.js';
import { addDays } from './billing-period.js';
import { suspend } from './subscription-end.js';
import type { SubscriptionLife } from './subscription-life.js';

/** A grace retry charges only while the renewal is unpaid and no cancellation stopped the retries. */
export function collectsInGrace(subscription: SubscriptionRecord): boolean {
  return (
    subscription.grace !== null && (subscription.status === 'IN_GRACE' || subscription.status === 'ACTIVE')
  );
}

/**
 * Not collected: grace begins (retried once a day for the grace policy's days), or, with no grace
 * left, the subscription is suspended.
 */
export function notCollected(
  life: SubscriptionLife,
  subscription: SubscriptionRecord,
  attempt: number,
  code: 'PAY-101' | 'PAY-103',
): void {
  const { days } = subscription.offer.gracePolicy;
  life.log(`subscription ${subscription.subscriptionUid} charge ${attempt} not collected (${code})`);
  const { grace } = subscription;
  if (grace === null) {
    if (days === 0) {
      suspend(life, subscription);
      return;
    }
    subscription.grace = { startedAt: life.clock.now(), failedRetries: 0 };
    entersGrace(life, subscription);
  } else {
    grace.failedRetries = attempt;
    if (attempt >= days) {
      suspend(life, subscription);
      return;
    }
    // Resumed in grace, it showed ACTIVE; the renewal is still unpaid, so it is in grace again.
    if (subscription.status === 'ACTIVE') entersGrace(life, subscription);
  }
  scheduleGraceRetry(life, subscription);
}

/** IN_GRACE, told with entitlement.updated: nothing collected, the price outstanding. */
function entersGrace(life: SubscriptionLife, subscription: SubscriptionRecord): void {
  subscription.status = 'IN_GRACE';
  life.emit(subscription, 'entitlement.updated', {
    amountCollected: zero(subscription.offer.price),
    periodOutstanding: subscription.offer.price,
  });
}

/** The next daily retry of an unpaid renewal, at its day (or `notBefore`, when that is later). */
export function scheduleGraceRetry(
  life: SubscriptionLife,
  subscription: SubscriptionRecord,
  notBefore?: Date,
): void {
  const { grace } = subscription;
  if (grace === null) return;
  const retry = grace.failedRetries + 1;
  const due = addDays(grace.startedAt, retry);
  const at = notBefore !== undefined && notBefore.getTime() > due.getTime() ? notBefore : due;
  life.schedule(subscription, at, `grace retry ${retry}`, () => {
    if (collectsInGrace(subscription)) life.charge(subscription, retry);
  });
}

export function zero(price: Money): Money {
  return { amount: 0, currency: price.currency };
}
