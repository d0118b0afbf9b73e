import { describe, expect, it } from 'vitest';
import { decide } from '../access/decide.js';
import type { Entitlement } from '../schemas/entitlement.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { chargeFields, dayAt, offer, subscriptionEvent } from '../test-support/fixtures.js';
import { metricEntriesOf } from './metric-entries-of.js';
import type { MetricEntry } from './metric-entry.js';

const day = dayAt;

interface Seen {
  event: WebhookEvent;
  source?: 'event' | 'read';
}

/** Decides each sighting in turn, as the kit does, and keeps the first fact of each key. */
function observe(offerUid: string, sightings: readonly Seen[]): MetricEntry[] {
  const offered = offer(offerUid);
  const key = { accountKey: 'user_1', productUid: offered.productUid };
  const kept = new Map<string, MetricEntry>();
  let held: Entitlement | undefined;
  for (const { event, source = 'event' } of sightings) {
    for (const entry of metricEntriesOf({ event, source, offer: offered, held })) {
      if (!kept.has(entry.key)) kept.set(entry.key, entry);
    }
    held = decide(event, held, offered, key, { source: source === 'read' ? 'read' : 'event' }) ?? held;
  }
  return [...kept.values()];
}

const summary = (entries: readonly MetricEntry[]) =>
  entries.map(({ kind, occurredAt, amount, live }) => ({ kind, at: occurredAt, amount, live }));

const trialEvent = (name: string, days: number, fields: Partial<WebhookEvent>) =>
  subscriptionEvent('off_trial', name, days, fields);
const trialing = { subscriptionStatus: 'TRIALING', currentPeriodEnd: day(7), trialEndsAt: day(7) } as const;
const started = trialEvent('payment.succeeded', 0, trialing);
const trialStarted = trialEvent('subscription.trial_started', 0, trialing);
const converted = trialEvent('entitlement.granted', 7, {
  ...chargeFields('ord_1', 37),
});
const renewed = trialEvent('entitlement.updated', 37, {
  ...chargeFields('ord_2', 67),
});
const graceBegins = trialEvent('entitlement.updated', 67, {
  subscriptionStatus: 'IN_GRACE',
  currentPeriodEnd: day(67),
  amountCollected: { amount: 0, currency: 'TND' },
  periodOutstanding: { amount: 4500, currency: 'TND' },
});
const recovered = (name: string) => trialEvent(name, 69, chargeFields('ord_3', 99));
const expired = (name: string) =>
  trialEvent(name, 99, { subscriptionStatus: 'EXPIRED', currentPeriodEnd: day(99), cancelAt: null });

const LIFE = [
  started,
  trialStarted,
  converted,
  renewed,
  graceBegins,
  recovered('entitlement.updated'),
  recovered('entitlement.granted'),
  trialEvent('subscription.updated', 80, { subscriptionStatus: 'PRE_CANCELED', currentPeriodEnd: day(99) }),
  expired('subscription.expired'),
  expired('entitlement.revoked'),
];

const EXPECTED_LIFE = [
  { kind: 'trial_started', at: day(0), amount: 0, live: 1 },
  { kind: 'trial_converted', at: day(7), amount: 4500, live: 0 },
  { kind: 'renewal_collected', at: day(37), amount: 4500, live: 0 },
  // The trial offer withholds access in grace: the subscriber is out until the charge comes.
  { kind: 'renewal_failed', at: day(67), amount: 0, live: -1 },
  { kind: 'renewal_collected', at: day(69), amount: 4500, live: 0 },
  { kind: 'grace_recovered', at: day(69), amount: 0, live: 1 },
  { kind: 'churn_expired', at: day(99), amount: 0, live: -1 },
];

describe('metricEntriesOf', () => {
  it('tells a trial subscription’s life as facts, each once, the live count back to zero', () => {
    const entries = observe('off_trial', LIFE.map(asEvent));
    expect(summary(entries)).toEqual(EXPECTED_LIFE);
    expect(entries.reduce((sum, entry) => sum + entry.live, 0)).toBe(0);
  });

  it('gives the same facts when every event comes twice', () => {
    const twice = LIFE.flatMap((event) => [asEvent(event), asEvent(event)]);
    expect(summary(observe('off_trial', twice))).toEqual(EXPECTED_LIFE);
  });

  it('counts a renewal a read found once, when its webhook comes later', () => {
    const read: WebhookEvent = {
      ...trialEvent('subscription.updated', 38, { subscriptionStatus: 'ACTIVE', currentPeriodEnd: day(67) }),
    };
    const repaired = observe('off_trial', [started, converted, read, renewed].map(asSighting(read)));
    expect(summary(repaired).map((entry) => entry.kind)).toEqual([
      'trial_started',
      'trial_converted',
      'renewal_collected',
    ]);
    // A read knows the state, not the moment: a renewal on time was charged as the held period ended.
    expect(repaired[2]?.occurredAt).toBe(day(37));
  });

  it('counts the recovery once when the charge overtakes the grace that came before it', () => {
    const reordered = [started, converted, renewed, recovered('entitlement.updated'), graceBegins];
    const kinds = observe('off_trial', reordered.map(asEvent)).map((entry) => entry.kind);
    expect(kinds).toEqual([
      'trial_started',
      'trial_converted',
      'renewal_collected',
      'renewal_collected',
      // The charge came two days after the period held ended, within the grace: it tells the
      // recovery itself, and the grace told later is its failed renewal alone.
      'grace_recovered',
      'renewal_failed',
    ]);
  });

  it('takes an ending’s cause from the subscription’s status, whichever of its two events comes first', () => {
    const canceled = (name: string) =>
      trialEvent(name, 40, { subscriptionStatus: 'CANCELED', currentPeriodEnd: day(67) });
    for (const order of [
      ['entitlement.revoked', 'subscription.canceled'],
      ['subscription.canceled', 'entitlement.revoked'],
    ]) {
      const entries = observe('off_trial', [started, converted, ...order.map(canceled)].map(asEvent));
      expect(entries.map((entry) => entry.kind)).toEqual([
        'trial_started',
        'trial_converted',
        'churn_canceled',
      ]);
    }
  });

  it('counts a paid start once from its payment and its grant, with the price', () => {
    const fields = {
      paymentUid: 'pay_m',
      status: 'SUCCEEDED',
      orderId: 'ord_m',
      productUid: 'prod_premium',
      offerUid: 'off_monthly',
      subscriptionUid: 'sub_m',
      subscriptionStatus: 'ACTIVE',
      currentPeriodEnd: day(30),
      metadata: { accountKey: 'user_1' },
    } as const;
    const payment: WebhookEvent = { event: 'payment.succeeded', occurredAt: day(0), ...fields };
    const granted: WebhookEvent = { event: 'entitlement.granted', occurredAt: day(0), ...fields };
    for (const order of [
      [payment, granted],
      [granted, payment],
    ]) {
      expect(
        summary(
          observe(
            'off_monthly',
            order.map((event) => ({ event })),
          ),
        ),
      ).toEqual([{ kind: 'new_subscription', at: day(0), amount: 4500, live: 1 }]);
    }
  });

  it('counts a purchase once from its webhook, its duplicate and the return page’s read', () => {
    const bought = (offerUid: string, productUid: string): WebhookEvent => ({
      event: 'payment.succeeded',
      occurredAt: day(1),
      paymentUid: `pay_${offerUid}`,
      status: 'SUCCEEDED',
      orderId: `ord_${offerUid}`,
      productUid,
      offerUid,
      metadata: { accountKey: 'user_1' },
    });
    const credits = bought('off_credits', 'prod_credits');
    const read = { event: { ...credits, occurredAt: day(1.001) }, source: 'read' as const };
    expect(summary(observe('off_credits', [read, { event: credits }, { event: credits }]))).toEqual([
      { kind: 'unit_sold', at: day(1.001), amount: 2000, live: 0 },
    ]);
    expect(
      observe('off_unlock', [{ event: bought('off_unlock', 'prod_unlock') }]).map((e) => e.kind),
    ).toEqual(['unlock_sold']);
  });

  it('tells nothing from a payment read of a subscription, nor from reminders and failed payments', () => {
    const none = observe('off_trial', [
      { event: { ...started, subscriptionStatus: undefined, currentPeriodEnd: undefined }, source: 'read' },
      { event: trialEvent('subscription.trial_will_end', 5, trialing) },
      { event: trialEvent('payment.failed', 5, { status: 'FAILED' }) },
    ]);
    expect(none).toEqual([]);
  });
});

const asEvent = (event: WebhookEvent): Seen => ({ event });

/** Sightings of `events`, the one that is `read` marked as a read. */
function asSighting(read: WebhookEvent) {
  return (event: WebhookEvent): Seen => ({ event, source: event === read ? 'read' : 'event' });
}
