import type { Money, WebhookEvent, WebhookEventName } from '@dcbkit/core';
import type { SandboxClock } from '../clock/clock.js';
import type { Catalog } from '../config/catalog.js';
import {
  type ChargeFields,
  paymentEventPayload,
  subscriptionEventPayload,
} from '../records/event-payloads.js';
import type { PaymentRecord } from '../records/payment-record.js';
import {
  type EndedStatus,
  hasEnded,
  isTrialRunning,
  type SubscriptionRecord,
} from '../records/subscription-record.js';
import { SubscriptionRefusal } from '../refusals/refusals.js';
import { newId } from '../shared/ids.js';
import type { SubscriptionCancelWhen } from '../shared/service-types.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { addBillingPeriod, addDays } from './billing-period.js';
import { chargeOutcomeOf, type RenewalOutcome, takeChargeOutcome } from './renewal-outcome.js';
import { SubscriptionTasks } from './subscription-tasks.js';

/** What starting a subscription produced: the record, and the events that follow payment.succeeded. */
export interface SubscriptionStart {
  subscription: SubscriptionRecord;
  followUpEvents: WebhookEvent[];
}

export interface SubscriptionEngineOptions {
  clock: SandboxClock;
  catalog: Catalog;
  outbox: WebhookOutbox;
  log: (line: string) => void;
}

/** `subscription.trial_will_end` comes this long before the trial ends (at the start of a shorter trial). */
export const TRIAL_REMINDER_DAYS = 3;

/**
 * The reminder warns of a charge to come: not once the trial is cancelled at its end. It still
 * comes after that cancellation was withdrawn, when the subscription shows ACTIVE in its trial.
 */
function remindsOfTrialEnd(subscription: SubscriptionRecord): boolean {
  return isTrialRunning(subscription) && subscription.status !== 'PRE_CANCELED';
}

/** A grace retry charges only while the renewal is unpaid and no cancellation stopped the retries. */
function collectsInGrace(subscription: SubscriptionRecord): boolean {
  return (
    subscription.grace !== null && (subscription.status === 'IN_GRACE' || subscription.status === 'ACTIVE')
  );
}

/**
 * Subscriptions started by first payments, and their life on the clock: trial reminder and
 * conversion, renewals at each period end, daily retries in grace, suspension, cancellation at
 * once or at period end, and resumption. docs/sandbox.md draws the state diagram.
 */
export class SubscriptionEngine {
  private readonly subscriptions = new Map<string, SubscriptionRecord>();
  /** Trials ever started, `clientId\nsubscriberUid\nproductUid`: SUB-108 without a scan. */
  private readonly trials = new Set<string>();
  private readonly tasks: SubscriptionTasks;

  constructor(private readonly options: SubscriptionEngineOptions) {
    this.tasks = new SubscriptionTasks(options.clock);
  }

  /** True when this first payment opens a free trial, so nothing is charged. */
  startsWithTrial(payment: PaymentRecord): boolean {
    return payment.offer.type === 'SUBSCRIPTION' && payment.offer.trialDays > 0;
  }

  /** True when this subscriber of the application has had a trial of the product (SUB-108). */
  hasHadTrial(clientId: string, subscriberUid: string, productUid: string): boolean {
    return this.trials.has(trialKey(clientId, subscriberUid, productUid));
  }

  /**
   * Creates the subscription of a first payment that just succeeded (`payment.status` is already
   * SUCCEEDED): TRIALING until the trial ends, or ACTIVE for a paid first period. The caller sends
   * payment.succeeded, then the returned follow-up events.
   */
  start(payment: PaymentRecord): SubscriptionStart {
    const { offer, subscriberUid } = payment;
    if (offer.type !== 'SUBSCRIPTION' || !offer.billingPeriod || subscriberUid === undefined) {
      throw new TypeError('SubscriptionEngine.start: needs an identified payment for a SUBSCRIPTION offer.');
    }
    const now = this.options.clock.now();
    const trial = this.startsWithTrial(payment);
    const periodEnd = trial ? addDays(now, offer.trialDays) : addBillingPeriod(now, offer.billingPeriod);
    const subscription: SubscriptionRecord = {
      subscriptionUid: newId('subs'),
      clientId: payment.clientId,
      offer,
      subscriberUid,
      payment,
      status: trial ? 'TRIALING' : 'ACTIVE',
      createdAt: now,
      currentPeriodStart: now,
      currentPeriodEnd: periodEnd,
      trialEndsAt: trial ? periodEnd : null,
      cancelAt: null,
      grace: null,
      paidPeriods: trial ? 0 : 1,
      charges: [],
      renewalOverride: null,
      endedAt: null,
    };
    this.subscriptions.set(subscription.subscriptionUid, subscription);
    if (trial) this.trials.add(trialKey(payment.clientId, subscriberUid, offer.productUid));
    payment.subscriptionUid = subscription.subscriptionUid;
    this.schedule(subscription, periodEnd, 'period end', () => this.periodEnds(subscription));
    this.options.log(`subscription ${subscription.subscriptionUid} ${subscription.status}`);
    // A trial starts access without a charge; "entitlement.granted" waits for the paid conversion.
    if (!trial) {
      return {
        subscription,
        followUpEvents: [paymentEventPayload('entitlement.granted', payment, now, subscription)],
      };
    }
    const followUpEvents = [paymentEventPayload('subscription.trial_started', payment, now, subscription)];
    const remindAt = addDays(periodEnd, -TRIAL_REMINDER_DAYS);
    if (remindAt.getTime() <= now.getTime()) {
      followUpEvents.push(subscriptionEventPayload('subscription.trial_will_end', subscription, now));
    } else {
      this.scheduleTrialReminder(subscription, remindAt);
    }
    return { subscription, followUpEvents };
  }

  /**
   * Takes back subscriptions from a state file and puts their pending work back on the clock: the
   * end of the trial or period, the trial reminder not yet sent at `savedAt`, the next grace retry.
   */
  restore(records: SubscriptionRecord[], savedAt: Date): void {
    for (const subscription of records) {
      this.subscriptions.set(subscription.subscriptionUid, subscription);
      subscription.payment.subscriptionUid = subscription.subscriptionUid;
      if (subscription.trialEndsAt !== null) {
        this.trials.add(
          trialKey(subscription.clientId, subscription.subscriberUid, subscription.offer.productUid),
        );
      }
      const { status } = subscription;
      if (hasEnded(status)) continue;
      if (collectsInGrace(subscription)) {
        this.scheduleGraceRetry(subscription);
        continue;
      }
      // A cancellation in grace ends at its own cancelAt, after the period it no longer renews.
      const endsAt =
        status === 'PRE_CANCELED'
          ? (subscription.cancelAt ?? subscription.currentPeriodEnd)
          : subscription.currentPeriodEnd;
      this.schedule(subscription, endsAt, 'period end', () => this.periodEnds(subscription));
      const remindAt = addDays(subscription.currentPeriodEnd, -TRIAL_REMINDER_DAYS);
      if (isTrialRunning(subscription) && remindAt.getTime() > savedAt.getTime()) {
        this.scheduleTrialReminder(subscription, remindAt);
      }
    }
  }

  /** The application's subscription, or undefined (another application's is not found either). */
  get(clientId: string, subscriptionUid: string): SubscriptionRecord | undefined {
    const subscription = this.subscriptions.get(subscriptionUid);
    return subscription?.clientId === clientId ? subscription : undefined;
  }

  /** Any application's subscription, for the sandbox's control endpoints. */
  find(subscriptionUid: string): SubscriptionRecord | undefined {
    return this.subscriptions.get(subscriptionUid);
  }

  /** Every subscription, oldest first. */
  list(): SubscriptionRecord[] {
    return [...this.subscriptions.values()];
  }

  /**
   * `NOW`: CANCELED at once. `PERIOD_END`: PRE_CANCELED until the end of the current period (or
   * trial), as the spec's cancel endpoint says; with a renewal unpaid (IN_GRACE, or ACTIVE after a
   * resume in grace), until the end of the access its grace policy gives (at once when it gives
   * none), with no more retries. Asking again for PERIOD_END changes nothing. Throws SUB-101, SUB-104.
   */
  cancel(clientId: string, subscriptionUid: string, when: SubscriptionCancelWhen): SubscriptionRecord {
    const subscription = this.getOrThrow(clientId, subscriptionUid);
    const { status } = subscription;
    if (hasEnded(status)) {
      throw new SubscriptionRefusal(
        'SUB-104',
        `Subscription ${subscriptionUid} has already ended (${status}).`,
      );
    }
    if (when === 'NOW') {
      this.end(subscription, 'CANCELED', 'subscription.canceled');
      return subscription;
    }
    if (status === 'PRE_CANCELED') return subscription;
    if (subscription.grace !== null) return this.preCancelInGrace(subscription);
    subscription.status = 'PRE_CANCELED';
    subscription.cancelAt = subscription.currentPeriodEnd;
    this.options.log(
      `subscription ${subscriptionUid} PRE_CANCELED until ${subscription.cancelAt.toISOString()}`,
    );
    this.emit(subscription, 'subscription.updated');
    return subscription;
  }

  /**
   * In grace the period is already over: access lasts as long as the grace policy gives it, so a
   * PERIOD_END cancel keeps exactly that and stops charging the line.
   */
  private preCancelInGrace(subscription: SubscriptionRecord): SubscriptionRecord {
    const { days, accessDuringGrace } = subscription.offer.gracePolicy;
    const now = this.options.clock.now();
    const graceEnd = addDays(subscription.grace?.startedAt ?? now, days);
    this.tasks.drop(subscription.subscriptionUid);
    subscription.status = 'PRE_CANCELED';
    subscription.cancelAt = accessDuringGrace && graceEnd.getTime() > now.getTime() ? graceEnd : now;
    this.options.log(
      `subscription ${subscription.subscriptionUid} PRE_CANCELED in grace until ${subscription.cancelAt.toISOString()}`,
    );
    this.emit(subscription, 'subscription.updated');
    this.schedule(subscription, subscription.cancelAt, 'period end', () => this.periodEnds(subscription));
    return subscription;
  }

  /**
   * Withdraws a PERIOD_END cancellation: ACTIVE with cancelAt null, as the spec's resume says,
   * wherever the cancellation was made. In a trial, the trial still ends at trialEndsAt with its
   * first charge (its period-end task was never dropped); with a renewal unpaid, the grace retries
   * the cancellation stopped go on, and the next failed one shows IN_GRACE again. Throws SUB-101,
   * SUB-105.
   */
  resume(clientId: string, subscriptionUid: string): SubscriptionRecord {
    const subscription = this.getOrThrow(clientId, subscriptionUid);
    const noneScheduled = () =>
      new SubscriptionRefusal(
        'SUB-105',
        `Subscription ${subscriptionUid} has no scheduled cancellation to withdraw.`,
      );
    if (subscription.status !== 'PRE_CANCELED') throw noneScheduled();
    const now = this.options.clock.now();
    if (subscription.cancelAt !== null && subscription.cancelAt.getTime() <= now.getTime()) {
      // Access already ended (a cancellation in grace without grace access ends now), though a
      // frozen clock has not run the end yet: end it, so a resume never gives that access back.
      this.periodEnds(subscription);
      throw noneScheduled();
    }
    subscription.status = 'ACTIVE';
    subscription.cancelAt = null;
    this.options.log(`subscription ${subscriptionUid} resumed, ACTIVE`);
    this.emit(subscription, 'subscription.updated');
    if (subscription.grace !== null) {
      // The retries the cancellation stopped go on, from the next one due.
      this.tasks.drop(subscription.subscriptionUid);
      this.scheduleGraceRetry(subscription, now);
    }
    return subscription;
  }

  /**
   * Forces the answer of the next `times` charges the service runs for this subscription (every
   * charge from now on without `times`); afterwards the line's test number decides again.
   */
  setRenewalOutcome(
    subscriptionUid: string,
    outcome: RenewalOutcome,
    times?: number,
  ): SubscriptionRecord | undefined {
    const subscription = this.subscriptions.get(subscriptionUid);
    if (subscription) {
      subscription.renewalOverride = { outcome: chargeOutcomeOf(outcome), remaining: times ?? null };
    }
    return subscription;
  }

  private getOrThrow(clientId: string, subscriptionUid: string): SubscriptionRecord {
    const subscription = this.get(clientId, subscriptionUid);
    if (!subscription) throw new SubscriptionRefusal('SUB-101', `Subscription ${subscriptionUid} not found.`);
    return subscription;
  }

  /** The end of a trial or period: a PRE_CANCELED subscription expires, any other is charged. */
  private periodEnds(subscription: SubscriptionRecord): void {
    if (subscription.status === 'PRE_CANCELED') {
      this.end(subscription, 'EXPIRED', 'subscription.expired');
    } else if (subscription.status === 'TRIALING' || subscription.status === 'ACTIVE') {
      this.charge(subscription, 0);
    }
  }

  private charge(subscription: SubscriptionRecord, attempt: number): void {
    const outcome = takeChargeOutcome(subscription, this.options.catalog.config, attempt);
    const { offer } = subscription;
    const made = { at: this.options.clock.now().toISOString(), attempt, amount: offer.price };
    if (outcome === 'SUCCESS') {
      const orderId = newId('ord');
      subscription.charges.push({ ...made, collected: true, code: null, orderId });
      this.collected(subscription, orderId);
    } else {
      const code = outcome === 'DECLINED' ? 'PAY-103' : 'PAY-101';
      subscription.charges.push({ ...made, collected: false, code, orderId: null });
      this.notCollected(subscription, attempt, code);
    }
  }

  /**
   * A new period starts when its charge is collected (so a renewal collected in grace starts a full
   * period then). The first paid period (a trial conversion) grants access; a renewal updates it;
   * a renewal collected in grace also grants again when the grace policy had withheld access.
   */
  private collected(subscription: SubscriptionRecord, orderId: string): void {
    const { offer } = subscription;
    const now = this.options.clock.now();
    const firstPaid = subscription.paidPeriods === 0;
    const inGrace = subscription.grace !== null;
    const accessWithheld = inGrace && !offer.gracePolicy.accessDuringGrace;
    subscription.paidPeriods++;
    subscription.status = 'ACTIVE';
    subscription.grace = null;
    subscription.currentPeriodStart = now;
    subscription.currentPeriodEnd = addBillingPeriod(now, billingPeriodOf(subscription));
    this.tasks.drop(subscription.subscriptionUid);
    this.schedule(subscription, subscription.currentPeriodEnd, 'period end', () =>
      this.periodEnds(subscription),
    );
    this.options.log(
      `subscription ${subscription.subscriptionUid} collected (order ${orderId}), ACTIVE until ${subscription.currentPeriodEnd.toISOString()}`,
    );
    const fields: ChargeFields = {
      orderId,
      amountCollected: offer.price,
      periodOutstanding: zero(offer.price),
    };
    if (inGrace || !firstPaid) this.emit(subscription, 'entitlement.updated', fields);
    if (firstPaid || accessWithheld) this.emit(subscription, 'entitlement.granted', fields);
  }

  /**
   * Not collected: grace begins (retried once a day for the grace policy's days), or, with no grace
   * left, the subscription is suspended.
   */
  private notCollected(subscription: SubscriptionRecord, attempt: number, code: 'PAY-101' | 'PAY-103'): void {
    const { days } = subscription.offer.gracePolicy;
    this.options.log(
      `subscription ${subscription.subscriptionUid} charge ${attempt} not collected (${code})`,
    );
    const { grace } = subscription;
    if (grace === null) {
      if (days === 0) {
        this.suspend(subscription);
        return;
      }
      subscription.grace = { startedAt: this.options.clock.now(), failedRetries: 0 };
      this.entersGrace(subscription);
    } else {
      grace.failedRetries = attempt;
      if (attempt >= days) {
        this.suspend(subscription);
        return;
      }
      // Resumed in grace, it showed ACTIVE; the renewal is still unpaid, so it is in grace again.
      if (subscription.status === 'ACTIVE') this.entersGrace(subscription);
    }
    this.scheduleGraceRetry(subscription);
  }

  /** IN_GRACE, told with entitlement.updated: nothing collected, the price outstanding. */
  private entersGrace(subscription: SubscriptionRecord): void {
    subscription.status = 'IN_GRACE';
    this.emit(subscription, 'entitlement.updated', {
      amountCollected: zero(subscription.offer.price),
      periodOutstanding: subscription.offer.price,
    });
  }

  /** The next daily retry of an unpaid renewal, at its day (or `notBefore`, when that is later). */
  private scheduleGraceRetry(subscription: SubscriptionRecord, notBefore?: Date): void {
    const { grace } = subscription;
    if (grace === null) return;
    const retry = grace.failedRetries + 1;
    const due = addDays(grace.startedAt, retry);
    const at = notBefore !== undefined && notBefore.getTime() > due.getTime() ? notBefore : due;
    this.schedule(subscription, at, `grace retry ${retry}`, () => {
      if (collectsInGrace(subscription)) this.charge(subscription, retry);
    });
  }

  private scheduleTrialReminder(subscription: SubscriptionRecord, at: Date): void {
    this.schedule(subscription, at, 'trial reminder', () => {
      if (remindsOfTrialEnd(subscription)) this.emit(subscription, 'subscription.trial_will_end');
    });
  }

  /** Ended for want of payment: "failed" when no period was ever paid (a trial that never converted). */
  private suspend(subscription: SubscriptionRecord): void {
    const event = subscription.paidPeriods === 0 ? 'subscription.failed' : 'subscription.suspended';
    this.end(subscription, 'SUSPENDED', event);
  }

  private end(
    subscription: SubscriptionRecord,
    status: EndedStatus,
    event:
      | 'subscription.suspended'
      | 'subscription.failed'
      | 'subscription.canceled'
      | 'subscription.expired',
  ): void {
    this.tasks.drop(subscription.subscriptionUid);
    subscription.status = status;
    // No cancellation is scheduled once it has ended (the spec's cancelAt); endedAt keeps the moment.
    subscription.cancelAt = null;
    subscription.grace = null;
    subscription.endedAt = this.options.clock.now();
    this.options.log(`subscription ${subscription.subscriptionUid} ${status}`);
    this.emit(subscription, event);
    this.emit(subscription, 'entitlement.revoked');
  }

  private emit(subscription: SubscriptionRecord, event: WebhookEventName, charge?: ChargeFields): void {
    this.options.outbox.emit(
      subscription.clientId,
      subscriptionEventPayload(event, subscription, this.options.clock.now(), charge),
    );
  }

  private schedule(subscription: SubscriptionRecord, at: Date, what: string, run: () => void): void {
    this.tasks.schedule(subscription.subscriptionUid, at, what, run);
  }
}

function billingPeriodOf(subscription: SubscriptionRecord) {
  const period = subscription.offer.billingPeriod;
  if (!period) throw new TypeError(`Offer ${subscription.offer.offerUid} has no billing period.`);
  return period;
}

function zero(price: Money): Money {
  return { amount: 0, currency: price.currency };
}

function trialKey(clientId: string, subscriberUid: string, productUid: string): string {
  return `${clientId}\n${subscriberUid}\n${productUid}`;
}
