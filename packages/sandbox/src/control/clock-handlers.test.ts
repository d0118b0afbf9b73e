import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../start/start-sandbox.js';
import { apiGet, controlRequest, expectApiError, type JsonAnswer } from '../test-support/api-client.js';
import { TEST_START } from '../test-support/sandbox-fixture.js';
import {
  DAY_SECONDS,
  type SubscriptionWorld,
  startSubscriptionWorld,
  stopSubscriptionWorld,
  subscribe,
} from '../test-support/subscription-world.js';
import type { clockView } from './clock-handlers.js';

let world: SubscriptionWorld | undefined;
let realTime: Sandbox | undefined;
afterEach(async () => {
  await stopSubscriptionWorld(world);
  await realTime?.close();
  world = undefined;
  realTime = undefined;
});

type ClockView = ReturnType<typeof clockView>;

function dataOfAnswer<T>(answer: JsonAnswer): T {
  expect(answer.status).toBe(200);
  return (answer.body as { data: T }).data;
}

describe('GET /sandbox/clock and POST /sandbox/clock/advance', () => {
  it('advances in time order and answers once the due tasks and their first webhook attempts ran', async () => {
    world = await startSubscriptionWorld();
    const { sandbox, receiver } = world;
    const before = dataOfAnswer<ClockView>(await apiGet(sandbox, '/sandbox/clock'));
    expect(before).toEqual({ now: TEST_START, frozen: true, pendingTasks: [] });
    const { subscriptionUid } = await subscribe(world);
    const pending = dataOfAnswer<ClockView>(await apiGet(sandbox, '/sandbox/clock')).pendingTasks;
    expect(pending.filter((task) => task.label.endsWith(subscriptionUid))).toEqual([
      { label: `trial reminder ${subscriptionUid}`, dueAt: '2030-01-05T00:00:00.000Z' },
      { label: `period end ${subscriptionUid}`, dueAt: '2030-01-08T00:00:00.000Z' },
    ]);

    const answer = await controlRequest(sandbox, 'POST', '/sandbox/clock/advance', {
      seconds: 7 * DAY_SECONDS,
    });
    const after = dataOfAnswer<ClockView>(answer);
    expect(after.now).toBe('2030-01-08T00:00:00.000Z');
    expect(after.pendingTasks).toContainEqual({
      label: `period end ${subscriptionUid}`,
      dueAt: '2030-02-08T00:00:00.000Z',
    });
    // Read at once, without deliverDue: the advance already made the first attempts.
    const events = receiver.verifiedEvents(sandbox.credentials.webhookSecret);
    expect(events.map((event) => [event.event, event.occurredAt])).toEqual([
      ['payment.succeeded', TEST_START],
      ['subscription.trial_started', TEST_START],
      ['subscription.trial_will_end', '2030-01-05T00:00:00.000Z'],
      ['entitlement.granted', '2030-01-08T00:00:00.000Z'],
    ]);
  });

  it('refuses a malformed advance with SBX-400 and leaves the clock alone', async () => {
    world = await startSubscriptionWorld();
    const { sandbox } = world;
    for (const body of [
      { seconds: -1 },
      { seconds: '60' },
      { seconds: 6 * 365 * DAY_SECONDS },
      {},
      '{ nope',
    ]) {
      expectApiError(await controlRequest(sandbox, 'POST', '/sandbox/clock/advance', body), 'SBX-400');
    }
    expectApiError(
      await controlRequest(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 1, days: 1 }),
      'SBX-400',
    );
    expect(sandbox.clock.now().toISOString()).toBe(TEST_START);
  });

  it('follows real time by default, and can still be moved forward', async () => {
    realTime = await startSandbox({ port: 0 });
    const before = dataOfAnswer<ClockView>(await apiGet(realTime, '/sandbox/clock'));
    expect(before.frozen).toBe(false);
    const after = dataOfAnswer<ClockView>(
      await controlRequest(realTime, 'POST', '/sandbox/clock/advance', { seconds: 3600 }),
    );
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3_600_000);
  });
});

describe('/sandbox/subscriptions', () => {
  it('lists subscriptions with their owner and charges, and forces renewal outcomes', async () => {
    world = await startSubscriptionWorld();
    const { sandbox } = world;
    const { subscriptionUid, payment } = await subscribe(world);
    const listed = dataOfAnswer<Array<Record<string, unknown>>>(
      await apiGet(sandbox, '/sandbox/subscriptions'),
    );
    expect(listed).toEqual([
      expect.objectContaining({
        subscriptionUid,
        status: 'TRIALING',
        clientId: sandbox.credentials.clientId,
        paymentUid: payment.paymentUid,
        renewalOverride: null,
        charges: [],
      }),
    ]);
    expect(dataOfAnswer(await apiGet(sandbox, '/sandbox/subscriptions?clientId=svc_test_nobody'))).toEqual(
      [],
    );

    const path = `/sandbox/subscriptions/${subscriptionUid}/renewal-outcome`;
    const forced = dataOfAnswer<Record<string, unknown>>(
      await controlRequest(sandbox, 'POST', path, { outcome: 'declined' }),
    );
    expect(forced.renewalOverride).toEqual({ outcome: 'DECLINED', remaining: null });
    await sandbox.advanceClock(7 * DAY_SECONDS);
    const read = dataOfAnswer<{ status: string; charges: Array<{ code: string | null }> }>(
      await apiGet(sandbox, `/sandbox/subscriptions/${subscriptionUid}`),
    );
    expect(read.status).toBe('IN_GRACE');
    expect(read.charges.map((charge) => charge.code)).toEqual(['PAY-103']);

    sandbox.setRenewalOutcome(subscriptionUid, 'success', 1);
    await sandbox.advanceClock(DAY_SECONDS);
    const recovered = dataOfAnswer<{ status: string; renewalOverride: unknown }>(
      await apiGet(sandbox, `/sandbox/subscriptions/${subscriptionUid}`),
    );
    expect(recovered).toMatchObject({ status: 'ACTIVE', renewalOverride: null });
  });

  it('answers SBX-404 for an unknown subscription and SBX-400 for a bad outcome', async () => {
    world = await startSubscriptionWorld();
    const { sandbox } = world;
    const { subscriptionUid } = await subscribe(world);
    expectApiError(await apiGet(sandbox, '/sandbox/subscriptions/subs_nope'), 'SBX-404');
    expectApiError(
      await controlRequest(sandbox, 'POST', '/sandbox/subscriptions/subs_nope/renewal-outcome', {
        outcome: 'success',
      }),
      'SBX-404',
    );
    const path = `/sandbox/subscriptions/${subscriptionUid}/renewal-outcome`;
    for (const body of [{ outcome: 'maybe' }, { outcome: 'success', times: 0 }, { times: 2 }]) {
      expectApiError(await controlRequest(sandbox, 'POST', path, body), 'SBX-400');
    }
    expect(() => sandbox.setRenewalOutcome('subs_nope', 'success')).toThrow(
      expect.objectContaining({ name: 'SandboxError', code: 'unknown_subscription' }),
    );
  });
});
