import type { ChargeFields } from '../records/event-payloads.js';
import type { SubscriptionRecord } from '../records/subscription-record.js';
import { newId } from '../shared/ids.js';
import { addBillingPeriod } from './billing-period.js';
import { notCollected, zero } from './grace.js';
import { takeChargeOutcome } from './renewal-outcome.js';
import { endSubscription } from './subscription-end.js';
import { type SubscriptionLife, scheduleEnd } from './subscription-life.js';

/** The end of a trial or period: a PRE_CANCELED subscription expires, any other is charged. */
export function periodEnds(life: SubscriptionLife, subscription: SubscriptionRecord): void {
  if (subscription.status === 'PRE_CANCELED') {
    endSubscription(life, subscription, 'EXPIRED', 'subscription.expired');
  } else if (subscription.status === 'TRIALING' || subscription.status === 'ACTIVE') {
    charge(life, subscription, 0);
  }
}

/** Charges the line (attempt 0 at the period end, then each grace retry), with the outcome it gets. */
export function charge(life: SubscriptionLife, subscription: SubscriptionRecord, attempt: number): void {
  const outcome = takeChargeOutcome(subscription, life.catalog.config, attempt);
  const { offer } = subscription;
  const made = { at: life.clock.now().toISOString(), attempt, amount: offer.price };
  if (outcome === 'SUCCESS') {
    const orderId = newId('ord');
    subscription.charges.push({ ...made, collected: true, code: null, orderId });
    collected(life, subscription, orderId);
  } else {
    const code = outcome === 'DECLINED' ? 'PAY-103' : 'PAY-101';
    subscription.charges.push({ ...made, collected: false, code, orderId: null });
    notCollected(life, subscription, attempt, code);
  }
}

/**
 * A new period starts when its charge is collected (so a renewal collected in grace starts a full
 * period then). The first paid period (a trial conversion) grants access; a renewal updates it;
 * a renewal collected in grace also grants again when the grace policy had withheld access.
 */
function collected(life: SubscriptionLife, subscription: SubscriptionRecord, orderId: string): void {
  const { offer } = subscription;
  const now = life.clock.now();
  const firstPaid = subscription.paidPeriods === 0;
  const inGrace = subscription.grace !== null;
  const accessWithheld = inGrace && !offer.gracePolicy.accessDuringGrace;
  subscription.paidPeriods++;
  subscription.status = 'ACTIVE';
  subscription.grace = null;
  subscription.currentPeriodStart = now;
  subscription.currentPeriodEnd = addBillingPeriod(now, billingPeriodOf(subscription));
  life.tasks.drop(subscription.subscriptionUid);
  scheduleEnd(life, subscription, subscription.currentPeriodEnd);
  life.log(
    `subscription ${subscription.subscriptionUid} collected (order ${orderId}), ACTIVE until ${subscription.currentPeriodEnd.toISOString()}`,
  );
  const fields: ChargeFields = {
    orderId,
    amountCollected: offer.price,
    periodOutstanding: zero(offer.price),
  };
  if (inGrace || !firstPaid) life.emit(subscription, 'entitlement.updated', fields);
  if (firstPaid || accessWithheld) life.emit(subscription, 'entitlement.granted', fields);
}

function billingPeriodOf(subscription: SubscriptionRecord) {
  const period = subscription.offer.billingPeriod;
  if (!period) throw new TypeError(`Offer ${subscription.offer.offerUid} has no billing period.`);
  return period;
}
