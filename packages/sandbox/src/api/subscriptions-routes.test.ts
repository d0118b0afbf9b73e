import { subscriptionSchema } from '@dcbkit/core/schemas';
import { describe, expect, it } from 'vitest';
import { apiGet, apiPost, dataOf, expectApiError, getToken } from '../test-support/api-client.js';
import { addApplication } from '../test-support/sandbox-fixture.js';
import {
  cancelSubscription,
  DAY_SECONDS,
  partnerEntitlement,
  receivedEvents,
  resumeSubscription,
  subscribe,
  useSubscriptionWorld,
} from '../test-support/subscription-world.js';

const start = useSubscriptionWorld();

describe('POST /v1/subscriptions/{uid}/cancel and /resume: errors', () => {
  it('SUB-101 for an unknown subscription, or another application’s', async () => {
    let other = { clientId: '', clientSecret: '' };
    const w = await start((config) => {
      other = addApplication(config, 'svc_test_other', ['payments', 'subscriptions']);
    });
    const { subscriptionUid } = await subscribe(w);
    expectApiError(await cancelSubscription(w, 'subs_unknown', 'NOW'), 'SUB-101');
    expectApiError(await resumeSubscription(w, 'subs_unknown'), 'SUB-101');
    const otherToken = await getToken(w.sandbox, other.clientId, other.clientSecret);
    expectApiError(await apiGet(w.sandbox, `/v1/subscriptions/${subscriptionUid}`, otherToken), 'SUB-101');
    const path = `/v1/subscriptions/${subscriptionUid}`;
    expectApiError(
      await apiPost(w.sandbox, `${path}/cancel`, { token: otherToken, body: { when: 'NOW' } }),
      'SUB-101',
    );
    expectApiError(await apiPost(w.sandbox, `${path}/resume`, { token: otherToken }), 'SUB-101');
    expect((await apiGet(w.sandbox, path, await w.token())).status).toBe(200);
  });

  it('AUZ-002 without the subscriptions capability', async () => {
    let payer = { clientId: '', clientSecret: '' };
    const w = await start((config) => {
      payer = addApplication(config, 'svc_test_payer', ['payments']);
    });
    const token = await getToken(w.sandbox, payer.clientId, payer.clientSecret);
    const path = '/v1/subscriptions/subs_x';
    expectApiError(await apiPost(w.sandbox, `${path}/cancel`, { token, body: { when: 'NOW' } }), 'AUZ-002');
    expectApiError(await apiPost(w.sandbox, `${path}/resume`, { token }), 'AUZ-002');
    expectApiError(await apiPost(w.sandbox, `${path}/cancel`, { body: { when: 'NOW' } }), 'ATH-002');
  });

  it('checks the cancel body: required, `when` required and valid, nothing else (VAL-001, VAL-002, VAL-006)', async () => {
    const w = await start();
    const { subscriptionUid } = await subscribe(w);
    const token = await w.token();
    const path = `/v1/subscriptions/${subscriptionUid}/cancel`;
    expectApiError(await apiPost(w.sandbox, path, { token }), 'VAL-001');
    expectApiError(await apiPost(w.sandbox, path, { token, body: {} }), 'VAL-001');
    expectApiError(await apiPost(w.sandbox, path, { token, body: { when: 'LATER' } }), 'VAL-002');
    expectApiError(await apiPost(w.sandbox, path, { token, body: ['NOW'] }), 'VAL-002');
    expectApiError(await apiPost(w.sandbox, path, { token, rawBody: '{ when' }), 'VAL-002');
    expectApiError(await apiPost(w.sandbox, path, { token, body: { when: 'NOW', refund: true } }), 'VAL-006');
    const read = dataOf(
      await apiGet(w.sandbox, `/v1/subscriptions/${subscriptionUid}`, token),
      subscriptionSchema,
    );
    expect(read.status).toBe('TRIALING');
  });

  it('SUB-104 once access has ended: CANCELED, EXPIRED or SUSPENDED', async () => {
    const w = await start();
    const canceled = await subscribe(w, '+21690000000');
    const expiring = await subscribe(w, '+21690000001');
    const failing = await subscribe(w, '+21690000101');
    await cancelSubscription(w, canceled.subscriptionUid, 'NOW');
    await cancelSubscription(w, expiring.subscriptionUid, 'PERIOD_END');
    await w.sandbox.advanceClock(10 * DAY_SECONDS);
    for (const [{ subscriptionUid }, status] of [
      [canceled, 'CANCELED'],
      [expiring, 'EXPIRED'],
      [failing, 'SUSPENDED'],
    ] as const) {
      const read = await apiGet(w.sandbox, `/v1/subscriptions/${subscriptionUid}`, await w.token());
      expect(dataOf(read, subscriptionSchema).status).toBe(status);
      expectApiError(await cancelSubscription(w, subscriptionUid, 'NOW'), 'SUB-104');
      expectApiError(await cancelSubscription(w, subscriptionUid, 'PERIOD_END'), 'SUB-104');
      expectApiError(await resumeSubscription(w, subscriptionUid), 'SUB-105');
    }
  });

  it('SUB-105 when no PERIOD_END cancellation is scheduled, even after one was withdrawn', async () => {
    const w = await start();
    const { subscriptionUid } = await subscribe(w);
    expectApiError(await resumeSubscription(w, subscriptionUid), 'SUB-105');
    await cancelSubscription(w, subscriptionUid, 'PERIOD_END');
    await w.sandbox.advanceClock(60);
    expect((await resumeSubscription(w, subscriptionUid)).status).toBe(200);
    expectApiError(await resumeSubscription(w, subscriptionUid), 'SUB-105');
  });
});

describe('cancellation choices', () => {
  it('a second PERIOD_END cancellation changes nothing and sends nothing', async () => {
    const w = await start();
    const { subscriptionUid } = await subscribe(w);
    const first = await cancelSubscription(w, subscriptionUid, 'PERIOD_END');
    await w.sandbox.advanceClock(60);
    const second = await cancelSubscription(w, subscriptionUid, 'PERIOD_END');
    expect(second.body).toEqual(first.body);
    const events = await receivedEvents(w);
    expect(events.filter((event) => event.event === 'subscription.updated')).toHaveLength(1);
  });

  it('in grace, PERIOD_END keeps the access the grace policy gives: PRE_CANCELED until it ends, no more charges', async () => {
    const w = await start();
    const { subscriptionUid } = await subscribe(w, '+21690000101');
    await w.sandbox.advanceClock(8 * DAY_SECONDS);
    const answer = await cancelSubscription(w, subscriptionUid, 'PERIOD_END');
    // Grace began at the period end (01-08) and gives 3 days of access.
    expect(dataOf(answer, subscriptionSchema)).toMatchObject({
      status: 'PRE_CANCELED',
      cancelAt: '2030-01-11T00:00:00.000Z',
      currentPeriodEnd: '2030-01-08T00:00:00.000Z',
    });
    const scheduled = await receivedEvents(w);
    expect(scheduled.slice(-2).map((event) => [event.event, event.subscriptionStatus])).toEqual([
      ['entitlement.updated', 'IN_GRACE'],
      ['subscription.updated', 'PRE_CANCELED'],
    ]);
    await w.sandbox.advanceClock(10 * DAY_SECONDS);
    const events = await receivedEvents(w);
    expect(events.slice(scheduled.length).map((event) => [event.event, event.occurredAt])).toEqual([
      ['subscription.expired', '2030-01-11T00:00:00.000Z'],
      ['entitlement.revoked', '2030-01-11T00:00:00.000Z'],
    ]);
  });

  it('in grace, resuming a PERIOD_END cancellation gives ACTIVE; the retries go on, and the next failure is grace again', async () => {
    const w = await start();
    const { subscriptionUid } = await subscribe(w, '+21690000101');
    // The trial's charge failed on 01-08, the first retry on 01-09.
    await w.sandbox.advanceClock(8 * DAY_SECONDS);
    await cancelSubscription(w, subscriptionUid, 'PERIOD_END');
    const resumed = await resumeSubscription(w, subscriptionUid);
    expect(dataOf(resumed, subscriptionSchema)).toMatchObject({ status: 'ACTIVE', cancelAt: null });
    const atResume = (await receivedEvents(w)).length;
    // Core's rules read the same: access as ACTIVE, then grace again, then revoked.
    expect(partnerEntitlement(w, await receivedEvents(w))?.status).toBe('ACTIVE');
    await w.sandbox.advanceClock(DAY_SECONDS);
    expect(partnerEntitlement(w, await receivedEvents(w))?.status).toBe('IN_GRACE');
    await w.sandbox.advanceClock(9 * DAY_SECONDS);
    const events = await receivedEvents(w);
    expect(partnerEntitlement(w, events)?.status).toBe('REVOKED');
    // The test number never pays: grace runs out on its own days, as without the detour.
    expect(
      events.slice(atResume).map((event) => [event.event, event.subscriptionStatus, event.occurredAt]),
    ).toEqual([
      ['entitlement.updated', 'IN_GRACE', '2030-01-10T00:00:00.000Z'],
      ['subscription.failed', 'SUSPENDED', '2030-01-11T00:00:00.000Z'],
      ['entitlement.revoked', 'SUSPENDED', '2030-01-11T00:00:00.000Z'],
    ]);
    const control = await apiGet(w.sandbox, `/sandbox/subscriptions/${subscriptionUid}`);
    const { charges } = (control.body as { data: { charges: Array<{ at: string; attempt: number }> } }).data;
    expect(charges.map((charge) => [charge.at, charge.attempt])).toEqual([
      ['2030-01-08T00:00:00.000Z', 0],
      ['2030-01-09T00:00:00.000Z', 1],
      ['2030-01-10T00:00:00.000Z', 2],
      ['2030-01-11T00:00:00.000Z', 3],
    ]);
  });

  it('in grace without grace access, the cancellation ends at once: a resume at that instant finds nothing to withdraw', async () => {
    const w = await start((config) => {
      const premium = config.offers.find((offer) => offer.offerUid === 'offer_premium_monthly');
      if (premium) premium.gracePolicy = { days: 3, accessDuringGrace: false };
    });
    const { subscriptionUid } = await subscribe(w, '+21690000101');
    await w.sandbox.advanceClock(7 * DAY_SECONDS);
    const canceled = await cancelSubscription(w, subscriptionUid, 'PERIOD_END');
    expect(dataOf(canceled, subscriptionSchema)).toMatchObject({
      status: 'PRE_CANCELED',
      cancelAt: '2030-01-08T00:00:00.000Z',
    });
    // The frozen clock has not run the end yet; the resume must not give back access that ended.
    expectApiError(await resumeSubscription(w, subscriptionUid), 'SUB-105');
    const read = await apiGet(w.sandbox, `/v1/subscriptions/${subscriptionUid}`, await w.token());
    expect(dataOf(read, subscriptionSchema)).toMatchObject({ status: 'EXPIRED', cancelAt: null });
    expect((await receivedEvents(w)).at(-1)).toMatchObject({ event: 'entitlement.revoked' });
  });

  it('cancel NOW from PRE_CANCELED or IN_GRACE ends it at once', async () => {
    const w = await start();
    const inGrace = await subscribe(w, '+21690000101');
    await w.sandbox.advanceClock(7 * DAY_SECONDS + 60);
    const graceRead = await apiGet(
      w.sandbox,
      `/v1/subscriptions/${inGrace.subscriptionUid}`,
      await w.token(),
    );
    expect(dataOf(graceRead, subscriptionSchema).status).toBe('IN_GRACE');
    const preCanceled = await subscribe(w, '+21690000000');
    await cancelSubscription(w, preCanceled.subscriptionUid, 'PERIOD_END');
    for (const { subscriptionUid } of [preCanceled, inGrace]) {
      const answer = await cancelSubscription(w, subscriptionUid, 'NOW');
      // Nothing is scheduled once it has ended, whatever was scheduled before.
      expect(dataOf(answer, subscriptionSchema)).toMatchObject({ status: 'CANCELED', cancelAt: null });
    }
  });
});
