import type { SandboxClock } from '../clock/clock.js';
import type { Catalog } from '../config/catalog.js';
import { subscriptionEventPayload } from '../records/event-payloads.js';
import type { PaymentRecord } from '../records/payment-record.js';
import type { SubscriptionRecord } from '../records/subscription-record.js';
import { SubscriptionRefusal } from '../refusals/refusals.js';
import type { SubscriptionCancelWhen } from '../shared/service-types.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { cancelSubscription, resumeSubscription } from './cancellation.js';
import { charge, periodEnds } from './renewal.js';
import { chargeOutcomeOf, type RenewalOutcome } from './renewal-outcome.js';
import { rescheduleSaved } from './reschedule-saved.js';
import { type SubscriptionStart, startSubscription, startsWithTrial } from './start-subscription.js';
import type { SubscriptionLife } from './subscription-life.js';
import { SubscriptionTasks } from './subscription-tasks.js';

export interface SubscriptionEngineOptions {
  clock: SandboxClock;
  catalog: Catalog;
  outbox: WebhookOutbox;
  log: (line: string) => void;
}

/**
 * Subscriptions started by first payments, and their life on the clock: trial reminder and
 * conversion (`start-subscription.ts`, `trial-reminder.ts`), renewals at each period end
 * (`renewal.ts`), daily retries in grace and suspension (`grace.ts`), cancellation at once or at
 * period end, and resumption (`cancellation.ts`). docs/sandbox.md draws the state diagram.
 */
export class SubscriptionEngine {
  private readonly subscriptions = new Map<string, SubscriptionRecord>();
  /** Trials ever started, `clientId\nsubscriberUid\nproductUid`: SUB-108 without a scan. */
  private readonly trials = new Set<string>();
  private readonly life: SubscriptionLife;

  constructor(options: SubscriptionEngineOptions) {
    const { clock, catalog, outbox, log } = options;
    const tasks = new SubscriptionTasks(clock);
    const life: SubscriptionLife = {
      clock,
      catalog,
      tasks,
      log,
      emit: (subscription, event, charged) =>
        outbox.emit(
          subscription.clientId,
          subscriptionEventPayload(event, subscription, clock.now(), charged),
        ),
      schedule: (subscription, at, what, run) => tasks.schedule(subscription.subscriptionUid, at, what, run),
      periodEnds: (subscription) => periodEnds(life, subscription),
      charge: (subscription, attempt) => charge(life, subscription, attempt),
    };
    this.life = life;
  }

  /** True when this first payment opens a free trial, so nothing is charged. */
  startsWithTrial(payment: PaymentRecord): boolean {
    return startsWithTrial(payment);
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
    const started = startSubscription(this.life, payment);
    this.hold(started.subscription);
    return started;
  }

  /**
   * Takes back subscriptions from a state file and puts their pending work back on the clock: the
   * end of the trial or period, the trial reminder not yet sent at `savedAt`, the next grace retry.
   */
  restore(records: SubscriptionRecord[], savedAt: Date): void {
    for (const subscription of records) {
      subscription.payment.subscriptionUid = subscription.subscriptionUid;
      this.hold(subscription);
      rescheduleSaved(this.life, subscription, savedAt);
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

  /** Cancels now or at period end (`cancellation.ts`). Throws SUB-101, SUB-104. */
  cancel(clientId: string, subscriptionUid: string, when: SubscriptionCancelWhen): SubscriptionRecord {
    const subscription = this.getOrThrow(clientId, subscriptionUid);
    cancelSubscription(this.life, subscription, when);
    return subscription;
  }

  /** Withdraws a PERIOD_END cancellation (`cancellation.ts`). Throws SUB-101, SUB-105. */
  resume(clientId: string, subscriptionUid: string): SubscriptionRecord {
    const subscription = this.getOrThrow(clientId, subscriptionUid);
    resumeSubscription(this.life, subscription);
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

  private hold(subscription: SubscriptionRecord): void {
    this.subscriptions.set(subscription.subscriptionUid, subscription);
    if (subscription.trialEndsAt !== null) {
      this.trials.add(
        trialKey(subscription.clientId, subscription.subscriberUid, subscription.offer.productUid),
      );
    }
  }

  private getOrThrow(clientId: string, subscriptionUid: string): SubscriptionRecord {
    const subscription = this.get(clientId, subscriptionUid);
    if (!subscription) throw new SubscriptionRefusal('SUB-101', `Subscription ${subscriptionUid} not found.`);
    return subscription;
  }
}

function trialKey(clientId: string, subscriberUid: string, productUid: string): string {
  return `${clientId}\n${subscriberUid}\n${productUid}`;
}
