import { type Entitlement, hasAccess, type Subscription } from '@dcbkit/core';
import { rememberPendingPayment } from '@dcbkit/core/node';
import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPayment,
  DAY_SECONDS,
  type OutageWorld,
  pendingDeliveries,
  startOutageWorld,
  subscribe,
} from './outage-world.js';

/** The entitlement status core's rules give a subscription status. */
function expectedStatus(subscription: Subscription): Entitlement['status'] {
  return ['SUSPENDED', 'CANCELED', 'EXPIRED'].includes(subscription.status)
    ? 'REVOKED'
    : (subscription.status as Entitlement['status']);
}

describe('reconciliation after a receiver outage the service gave up on', () => {
  let world: OutageWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('one run restores every entitlement to what the sandbox holds, and a second run changes nothing', async () => {
    world = await startOutageWorld();
    const { sandbox, kit } = world;
    const subscriptions = {
      cancelsAtPeriodEnd: await subscribe(world, 'user_period_end'),
      cancelsNow: await subscribe(world, 'user_now'),
      renews: await subscribe(world, 'user_renews'),
      renewalsFail: await subscribe(world, 'user_fails', '+21690000401'),
    };
    const abandoned = await createPayment(world, 'user_returns_later');
    // The return page found it open and remembered it.
    expect(
      await rememberPendingPayment(kit.store, abandoned, 'user_returns_later', sandbox.clock.now()),
    ).toBe(true);
    expect(await pendingDeliveries(world)).toBe(0);
    for (const account of ['user_period_end', 'user_now', 'user_renews', 'user_fails']) {
      expect((await kit.store.get(account, 'prod_premium'))?.status).toBe('TRIALING');
    }

    // The receiver goes down (its store is out: 500) while the service moves on.
    world.receiver.up = false;
    await kit.client.subscriptions.cancel(subscriptions.cancelsAtPeriodEnd, { when: 'PERIOD_END' });
    await kit.client.subscriptions.cancel(subscriptions.cancelsNow, { when: 'NOW' });
    const late = await createCheckoutDriver(sandbox).pay(abandoned.checkoutUrl);
    expect(late.status).toBe('SUCCEEDED');
    // Trials end, renewals are collected or fail into grace and suspension; 48 h later every
    // event of the outage is dead-lettered.
    for (let day = 0; day < 45; day++) await sandbox.advanceClock(DAY_SECONDS);
    expect(await pendingDeliveries(world)).toBe(0);
    const deadLettered = sandbox.webhooks().filter((delivery) => delivery.status === 'DEAD_LETTERED');
    expect(deadLettered.length).toBeGreaterThanOrEqual(6);
    world.receiver.up = true;

    const truth = new Map<string, Subscription>();
    for (const [account, uid] of [
      ['user_period_end', subscriptions.cancelsAtPeriodEnd],
      ['user_now', subscriptions.cancelsNow],
      ['user_renews', subscriptions.renews],
      ['user_fails', subscriptions.renewalsFail],
    ] as const) {
      truth.set(account, await kit.client.subscriptions.retrieve(uid));
    }
    // The outage left them wrong: all still TRIALING, and the late payment not granted.
    const now = sandbox.clock.now();
    const due =
      (await kit.store.listDueEntitlements({
        now,
        staleBefore: new Date(now.getTime() - 7 * 86_400_000),
        limit: 100,
      })) ?? [];
    expect(due.map((entitlement) => entitlement.accountKey).sort()).toEqual([...truth.keys()].sort());
    expect(await kit.store.get('user_returns_later', 'prod_premium')).toBeUndefined();

    const first = await kit.reconcile();
    expect(first.failures).toEqual([]);
    expect(first.stopped).toBeUndefined();
    // One read per due entitlement; the pending payment costs its payment read and its subscription read.
    expect(first.reads).toBeLessThanOrEqual(due.length + 2);
    expect(first.checked).toBe(due.length + 1);

    for (const [account, subscription] of truth) {
      const entitlement = await kit.store.get(account, 'prod_premium');
      expect(entitlement?.status, account).toBe(expectedStatus(subscription));
      expect(hasAccess(entitlement, sandbox.clock.now()), account).toBe(
        ['TRIALING', 'ACTIVE', 'PRE_CANCELED', 'IN_GRACE'].includes(subscription.status),
      );
    }
    expect(truth.get('user_renews')?.status).toBe('ACTIVE');
    expect(truth.get('user_now')?.status).not.toBe('ACTIVE');
    expect(truth.get('user_fails')?.status).toBe('SUSPENDED');
    expect((await kit.store.get('user_renews', 'prod_premium'))?.currentPeriodEnd).toBe(
      truth.get('user_renews')?.currentPeriodEnd,
    );
    const returned = await kit.store.get('user_returns_later', 'prod_premium');
    expect(hasAccess(returned, sandbox.clock.now())).toBe(true);

    // Each change is reported with before and after; the listeners heard of access changes as reconciliation.
    const changed = first.changes.map(
      (change) => `${change.accountKey}:${change.before?.status ?? '-'}->${change.after.status}`,
    );
    expect(changed.sort()).toEqual(
      [
        'user_fails:TRIALING->REVOKED',
        'user_now:TRIALING->REVOKED',
        'user_period_end:TRIALING->REVOKED',
        'user_renews:TRIALING->ACTIVE',
        `user_returns_later:-->${returned?.status}`,
      ].sort(),
    );
    expect(world.revoked.map((context) => [context.accountKey, context.source]).sort()).toEqual([
      ['user_fails', 'reconciliation'],
      ['user_now', 'reconciliation'],
      ['user_period_end', 'reconciliation'],
    ]);
    expect(
      world.granted.filter((context) => context.source === 'reconciliation').map((c) => c.accountKey),
    ).toEqual(['user_returns_later']);

    const second = await kit.reconcile();
    expect(second).toMatchObject({ checked: 0, reads: 0, changes: [], failures: [] });
  });
});
