import { describe, expect, it } from 'vitest';
import { apiGet, apiPost } from '../test-support/api-client.js';
import {
  advanceDays,
  day,
  expectDistinctIdentities,
  expectSubscription,
  premium,
  TND,
  withoutTrial,
} from '../test-support/subscription-expectations.js';
import {
  partnerEntitlement,
  readPayment,
  receivedEvents,
  subscribe,
  timeline,
  useSubscriptionWorld,
} from '../test-support/subscription-world.js';

const start = useSubscriptionWorld();

describe('a subscription with a trial', () => {
  it('trial -> active -> renewals -> grace -> recovered, with the webhooks of each step', async () => {
    const w = await start();
    const { payment, subscriptionUid } = await subscribe(w);
    expect(payment).toMatchObject({ subscriptionUid, status: 'SUCCEEDED' });
    expect(payment.orderId).toBeUndefined();
    await expectSubscription(w, subscriptionUid, {
      status: 'TRIALING',
      currentPeriodEnd: day('01-08'),
      trialEndsAt: day('01-08'),
      cancelAt: null,
    });

    await advanceDays(w, 4);
    await advanceDays(w, 3);
    const active = await expectSubscription(w, subscriptionUid, {
      status: 'ACTIVE',
      currentPeriodEnd: day('02-08'),
      cancelAt: null,
    });
    expect(active.trialEndsAt).toBeUndefined();

    await advanceDays(w, 31);
    await advanceDays(w, 28);
    await expectSubscription(w, subscriptionUid, { status: 'ACTIVE', currentPeriodEnd: day('04-08') });

    const forced = await apiPost(w.sandbox, `/sandbox/subscriptions/${subscriptionUid}/renewal-outcome`, {
      body: { outcome: 'insufficient_balance', times: 2 },
    });
    expect(forced.status).toBe(200);
    await advanceDays(w, 31);
    await expectSubscription(w, subscriptionUid, { status: 'IN_GRACE', currentPeriodEnd: day('04-08') });
    await advanceDays(w, 1);
    await expectSubscription(w, subscriptionUid, { status: 'IN_GRACE' });
    await advanceDays(w, 1);
    await expectSubscription(w, subscriptionUid, { status: 'ACTIVE', currentPeriodEnd: day('05-10') });

    const events = await receivedEvents(w);
    expect(timeline(events)).toEqual([
      ['payment.succeeded', 'TRIALING', day('01-01')],
      ['subscription.trial_started', 'TRIALING', day('01-01')],
      ['subscription.trial_will_end', 'TRIALING', day('01-05')],
      ['entitlement.granted', 'ACTIVE', day('01-08')],
      ['entitlement.updated', 'ACTIVE', day('02-08')],
      ['entitlement.updated', 'ACTIVE', day('03-08')],
      ['entitlement.updated', 'IN_GRACE', day('04-08')],
      ['entitlement.updated', 'ACTIVE', day('04-10')],
    ]);
    const common = {
      paymentUid: payment.paymentUid,
      status: 'SUCCEEDED',
      productUid: 'prod_premium',
      offerUid: 'offer_premium_monthly',
      subscriberUid: payment.subscriberUid,
      subscriptionUid,
      cancelAt: null,
      metadata: { userId: 'user_42' },
    };
    expect(events[2]).toEqual({
      ...common,
      event: 'subscription.trial_will_end',
      subscriptionStatus: 'TRIALING',
      currentPeriodEnd: day('01-08'),
      trialEndsAt: day('01-08'),
      occurredAt: day('01-05'),
    });
    expect(events[3]).toEqual({
      ...common,
      event: 'entitlement.granted',
      orderId: expect.stringMatching(/^ord_/),
      subscriptionStatus: 'ACTIVE',
      currentPeriodEnd: day('02-08'),
      amountCollected: TND(4500),
      periodOutstanding: TND(0),
      occurredAt: day('01-08'),
    });
    expect(events[6]).toEqual({
      ...common,
      event: 'entitlement.updated',
      subscriptionStatus: 'IN_GRACE',
      currentPeriodEnd: day('04-08'),
      amountCollected: TND(0),
      periodOutstanding: TND(4500),
      occurredAt: day('04-08'),
    });
    expect(events[7]).toMatchObject({
      currentPeriodEnd: day('05-10'),
      amountCollected: TND(4500),
      periodOutstanding: TND(0),
    });
    const orders = events.flatMap((event) => (event.orderId === undefined ? [] : [event.orderId]));
    expect(orders).toHaveLength(4);
    expect(new Set(orders).size).toBe(4);
    expectDistinctIdentities(events);

    const control = await apiGet(w.sandbox, `/sandbox/subscriptions/${subscriptionUid}`);
    const { charges } = (control.body as { data: { charges: Array<Record<string, unknown>> } }).data;
    expect(charges.map((charge) => [charge.at, charge.attempt, charge.collected, charge.code])).toEqual([
      [day('01-08'), 0, true, null],
      [day('02-08'), 0, true, null],
      [day('03-08'), 0, true, null],
      [day('04-08'), 0, false, 'PAY-101'],
      [day('04-09'), 1, false, 'PAY-101'],
      [day('04-10'), 2, true, null],
    ]);
    expect((await readPayment(w, payment.paymentUid)).subscriptionUid).toBe(subscriptionUid);
  });

  it('a trial whose first charge never succeeds ends SUSPENDED with subscription.failed', async () => {
    const w = await start();
    const { subscriptionUid } = await subscribe(w, '+21690000101');
    await advanceDays(w, 7);
    await expectSubscription(w, subscriptionUid, { status: 'IN_GRACE', currentPeriodEnd: day('01-08') });
    await advanceDays(w, 3);
    await expectSubscription(w, subscriptionUid, { status: 'SUSPENDED', cancelAt: null });
    expect(timeline(await receivedEvents(w))).toEqual([
      ['payment.succeeded', 'TRIALING', day('01-01')],
      ['subscription.trial_started', 'TRIALING', day('01-01')],
      ['subscription.trial_will_end', 'TRIALING', day('01-05')],
      ['entitlement.updated', 'IN_GRACE', day('01-08')],
      ['subscription.failed', 'SUSPENDED', day('01-11')],
      ['entitlement.revoked', 'SUSPENDED', day('01-11')],
    ]);
  });

  it('a trial of three days or less is reminded at its start', async () => {
    const w = await start((config) => {
      premium(config).trialDays = 2;
    });
    await subscribe(w);
    expect(timeline(await receivedEvents(w))).toEqual([
      ['payment.succeeded', 'TRIALING', day('01-01')],
      ['subscription.trial_started', 'TRIALING', day('01-01')],
      ['subscription.trial_will_end', 'TRIALING', day('01-01')],
    ]);
  });

  it('with no grace, a failed first charge fails the subscription at once', async () => {
    const w = await start((config) => {
      premium(config).gracePolicy = { days: 0, accessDuringGrace: false };
    });
    const { subscriptionUid } = await subscribe(w, '+21690000401');
    await advanceDays(w, 7);
    await expectSubscription(w, subscriptionUid, { status: 'SUSPENDED' });
    expect(timeline(await receivedEvents(w)).slice(3)).toEqual([
      ['subscription.failed', 'SUSPENDED', day('01-08')],
      ['entitlement.revoked', 'SUSPENDED', day('01-08')],
    ]);
  });
});

describe('renewals that are not collected', () => {
  it('grace -> suspended: retried daily for the grace days, then subscription.suspended and entitlement.revoked', async () => {
    const w = await start(withoutTrial);
    const { payment, subscriptionUid } = await subscribe(w, '+21690000401');
    await expectSubscription(w, subscriptionUid, { status: 'ACTIVE', currentPeriodEnd: day('02-01') });
    await advanceDays(w, 31);
    await expectSubscription(w, subscriptionUid, { status: 'IN_GRACE', currentPeriodEnd: day('02-01') });
    await advanceDays(w, 2);
    await expectSubscription(w, subscriptionUid, { status: 'IN_GRACE' });
    await advanceDays(w, 1);
    await expectSubscription(w, subscriptionUid, { status: 'SUSPENDED', currentPeriodEnd: day('02-01') });
    const events = await receivedEvents(w);
    expect(timeline(events)).toEqual([
      ['payment.succeeded', 'ACTIVE', day('01-01')],
      ['entitlement.granted', 'ACTIVE', day('01-01')],
      ['entitlement.updated', 'IN_GRACE', day('02-01')],
      ['subscription.suspended', 'SUSPENDED', day('02-04')],
      ['entitlement.revoked', 'SUSPENDED', day('02-04')],
    ]);
    expect(events[4]).toEqual({
      event: 'entitlement.revoked',
      paymentUid: payment.paymentUid,
      status: 'SUCCEEDED',
      productUid: 'prod_premium',
      offerUid: 'offer_premium_monthly',
      subscriberUid: payment.subscriberUid,
      subscriptionUid,
      subscriptionStatus: 'SUSPENDED',
      currentPeriodEnd: day('02-01'),
      cancelAt: null,
      metadata: { userId: 'user_42' },
      occurredAt: day('02-04'),
    });
    expect(w.sandbox.clock.pending().filter((task) => task.label.includes(subscriptionUid))).toEqual([]);
    await advanceDays(w, 60);
    expect(await receivedEvents(w)).toHaveLength(5);
  });

  it('a line that recovers on the second retry: back to ACTIVE; access withheld in grace is granted again', async () => {
    const w = await start((config) => {
      withoutTrial(config);
      premium(config).gracePolicy = { days: 3, accessDuringGrace: false };
    });
    const { subscriptionUid } = await subscribe(w, '+21690000402');
    await advanceDays(w, 31);
    const grace = partnerEntitlement(w, await receivedEvents(w));
    expect(grace).toMatchObject({ status: 'IN_GRACE', graceEndsAt: null });
    await advanceDays(w, 2);
    await expectSubscription(w, subscriptionUid, { status: 'ACTIVE', currentPeriodEnd: day('03-03') });
    const events = await receivedEvents(w);
    expect(timeline(events).slice(2)).toEqual([
      ['entitlement.updated', 'IN_GRACE', day('02-01')],
      ['entitlement.updated', 'ACTIVE', day('02-03')],
      ['entitlement.granted', 'ACTIVE', day('02-03')],
    ]);
    expect(events[3]?.orderId).toBe(events[4]?.orderId);
    expectDistinctIdentities(events);
  });

  it('with no grace, a failed renewal suspends at once', async () => {
    const w = await start((config) => {
      withoutTrial(config);
      premium(config).gracePolicy = { days: 0, accessDuringGrace: false };
    });
    const { subscriptionUid } = await subscribe(w, '+21620000401');
    await advanceDays(w, 31);
    await expectSubscription(w, subscriptionUid, { status: 'SUSPENDED' });
    expect(timeline(await receivedEvents(w)).slice(2)).toEqual([
      ['subscription.suspended', 'SUSPENDED', day('02-01')],
      ['entitlement.revoked', 'SUSPENDED', day('02-01')],
    ]);
  });
});
