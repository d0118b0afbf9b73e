import type { Subscription } from '@dcbkit/core';
import { describe, expect, it } from 'vitest';
import { apiGet } from '../test-support/api-client.js';
import {
  advanceDays,
  day,
  expectDistinctIdentities,
  expectSubscription,
  withoutTrial,
} from '../test-support/subscription-expectations.js';
import {
  cancelSubscription,
  partnerEntitlement,
  receivedEvents,
  resumeSubscription,
  subscribe,
  timeline,
  useSubscriptionWorld,
} from '../test-support/subscription-world.js';

const start = useSubscriptionWorld();

describe('cancellation', () => {
  it('pre-cancel then resume, in the trial and when paid: back to TRIALING, then ACTIVE, cancelAt null each time, renewals go on', async () => {
    const w = await start();
    const { subscriptionUid } = await subscribe(w);
    await advanceDays(w, 1);
    const preCanceled = await cancelSubscription(w, subscriptionUid, 'PERIOD_END');
    expect(preCanceled.status).toBe(200);
    expect((preCanceled.body as { data: Subscription }).data).toEqual(
      await expectSubscription(w, subscriptionUid, {
        status: 'PRE_CANCELED',
        cancelAt: day('01-08'),
        trialEndsAt: day('01-08'),
      }),
    );
    await advanceDays(w, 1);
    // The spec: PRE_CANCELED --resume--> cancelAt null; ACTIVE is "paid and running", and a trial is
    // TRIALING until trialEndsAt with nothing charged, so a resumed trial is TRIALING again.
    const resumedInTrial = await resumeSubscription(w, subscriptionUid);
    expect((resumedInTrial.body as { data: Subscription }).data).toEqual(
      await expectSubscription(w, subscriptionUid, {
        status: 'TRIALING',
        cancelAt: null,
        currentPeriodEnd: day('01-08'),
        trialEndsAt: day('01-08'),
      }),
    );
    expect(partnerEntitlement(w, await receivedEvents(w))).toMatchObject({
      status: 'TRIALING',
      trialEndsAt: day('01-08'),
    });
    await advanceDays(w, 6);
    await cancelSubscription(w, subscriptionUid, 'PERIOD_END');
    await expectSubscription(w, subscriptionUid, { status: 'PRE_CANCELED', cancelAt: day('02-08') });
    await advanceDays(w, 1);
    const resumed = await resumeSubscription(w, subscriptionUid);
    expect((resumed.body as { data: Subscription }).data).toEqual(
      await expectSubscription(w, subscriptionUid, {
        status: 'ACTIVE',
        cancelAt: null,
        currentPeriodEnd: day('02-08'),
      }),
    );
    await advanceDays(w, 30);
    await expectSubscription(w, subscriptionUid, { status: 'ACTIVE', currentPeriodEnd: day('03-08') });
    const events = await receivedEvents(w);
    // The events of a trial that was never cancelled: the reminder, then the paid conversion at
    // the trial's end, which grants.
    expect(
      events.map((event) => [event.event, event.subscriptionStatus, event.cancelAt, event.occurredAt]),
    ).toEqual([
      ['payment.succeeded', 'TRIALING', null, day('01-01')],
      ['subscription.trial_started', 'TRIALING', null, day('01-01')],
      ['subscription.updated', 'PRE_CANCELED', day('01-08'), day('01-02')],
      ['subscription.updated', 'TRIALING', null, day('01-03')],
      ['subscription.trial_will_end', 'TRIALING', null, day('01-05')],
      ['entitlement.granted', 'ACTIVE', null, day('01-08')],
      ['subscription.updated', 'PRE_CANCELED', day('02-08'), day('01-09')],
      ['subscription.updated', 'ACTIVE', null, day('01-10')],
      ['entitlement.updated', 'ACTIVE', null, day('02-08')],
    ]);
    expect(events[2]?.trialEndsAt).toBe(day('01-08'));
    expect(events[3]?.trialEndsAt).toBe(day('01-08'));
    expect(events[5]?.trialEndsAt).toBeUndefined();
    expect(events[2]?.orderId).toBeUndefined();
    expect(events[5]?.orderId).toMatch(/^ord_/);
    expectDistinctIdentities(events);
    const control = await apiGet(w.sandbox, `/sandbox/subscriptions/${subscriptionUid}`);
    const { charges } = (control.body as { data: { charges: Array<Record<string, unknown>> } }).data;
    expect(charges.map((charge) => [charge.at, charge.attempt, charge.collected])).toEqual([
      [day('01-08'), 0, true],
      [day('02-08'), 0, true],
    ]);
  });

  it('a trial resumed, then not paid at its end: grace, then subscription.failed, as a trial never cancelled', async () => {
    const w = await start();
    const { subscriptionUid } = await subscribe(w, '+21690000101');
    await cancelSubscription(w, subscriptionUid, 'PERIOD_END');
    await advanceDays(w, 1);
    await resumeSubscription(w, subscriptionUid);
    await advanceDays(w, 6);
    await expectSubscription(w, subscriptionUid, { status: 'IN_GRACE', cancelAt: null });
    await advanceDays(w, 3);
    await expectSubscription(w, subscriptionUid, { status: 'SUSPENDED', cancelAt: null });
    expect(timeline(await receivedEvents(w)).slice(3)).toEqual([
      ['subscription.updated', 'TRIALING', day('01-02')],
      ['subscription.trial_will_end', 'TRIALING', day('01-05')],
      ['entitlement.updated', 'IN_GRACE', day('01-08')],
      ['subscription.failed', 'SUSPENDED', day('01-11')],
      ['entitlement.revoked', 'SUSPENDED', day('01-11')],
    ]);
  });

  it('pre-cancel then end: EXPIRED at cancelAt with subscription.expired and entitlement.revoked, nothing charged', async () => {
    const w = await start(withoutTrial);
    const { subscriptionUid } = await subscribe(w);
    await advanceDays(w, 10);
    await cancelSubscription(w, subscriptionUid, 'PERIOD_END');
    await expectSubscription(w, subscriptionUid, { status: 'PRE_CANCELED', cancelAt: day('02-01') });
    await advanceDays(w, 21);
    // Nothing is scheduled any more: cancelAt is null; when access ended is endedAt (and the events' time).
    await expectSubscription(w, subscriptionUid, {
      status: 'EXPIRED',
      cancelAt: null,
      currentPeriodEnd: day('02-01'),
    });
    expect(timeline(await receivedEvents(w))).toEqual([
      ['payment.succeeded', 'ACTIVE', day('01-01')],
      ['entitlement.granted', 'ACTIVE', day('01-01')],
      ['subscription.updated', 'PRE_CANCELED', day('01-11')],
      ['subscription.expired', 'EXPIRED', day('02-01')],
      ['entitlement.revoked', 'EXPIRED', day('02-01')],
    ]);
    expect((await receivedEvents(w)).slice(-2).map((event) => event.cancelAt)).toEqual([null, null]);
    const control = await apiGet(w.sandbox, `/sandbox/subscriptions/${subscriptionUid}`);
    expect((control.body as { data: { charges: unknown[]; endedAt: string } }).data).toMatchObject({
      charges: [],
      endedAt: day('02-01'),
    });
  });

  it('a trial cancelled at period end expires at trialEndsAt, unconverted and without a reminder', async () => {
    const w = await start();
    const { subscriptionUid } = await subscribe(w);
    await advanceDays(w, 1);
    await cancelSubscription(w, subscriptionUid, 'PERIOD_END');
    await advanceDays(w, 6);
    await expectSubscription(w, subscriptionUid, { status: 'EXPIRED', cancelAt: null });
    expect(timeline(await receivedEvents(w))).toEqual([
      ['payment.succeeded', 'TRIALING', day('01-01')],
      ['subscription.trial_started', 'TRIALING', day('01-01')],
      ['subscription.updated', 'PRE_CANCELED', day('01-02')],
      ['subscription.expired', 'EXPIRED', day('01-08')],
      ['entitlement.revoked', 'EXPIRED', day('01-08')],
    ]);
  });

  it('cancel now: CANCELED at once with subscription.canceled and entitlement.revoked, and nothing after', async () => {
    const w = await start();
    const { subscriptionUid } = await subscribe(w);
    await advanceDays(w, 10);
    const canceled = await cancelSubscription(w, subscriptionUid, 'NOW');
    expect(canceled.status).toBe(200);
    expect((canceled.body as { data: Subscription }).data).toEqual(
      await expectSubscription(w, subscriptionUid, {
        status: 'CANCELED',
        cancelAt: null,
        currentPeriodEnd: day('02-08'),
      }),
    );
    const control = await apiGet(w.sandbox, `/sandbox/subscriptions/${subscriptionUid}`);
    expect((control.body as { data: { endedAt: string } }).data.endedAt).toBe(day('01-11'));
    await advanceDays(w, 90);
    expect(timeline(await receivedEvents(w))).toEqual([
      ['payment.succeeded', 'TRIALING', day('01-01')],
      ['subscription.trial_started', 'TRIALING', day('01-01')],
      ['subscription.trial_will_end', 'TRIALING', day('01-05')],
      ['entitlement.granted', 'ACTIVE', day('01-08')],
      ['subscription.canceled', 'CANCELED', day('01-11')],
      ['entitlement.revoked', 'CANCELED', day('01-11')],
    ]);
  });
});
