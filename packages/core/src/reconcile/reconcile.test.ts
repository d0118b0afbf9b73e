import { describe, expect, it, vi } from 'vitest';
import { dueReason } from '../access/reconcile-deadline.js';
import { isDcbError } from '../errors/dcb-error.js';
import type { Subscription } from '../schemas/subscription.js';
import { exampleEntitlement } from '../store/conformance/example-entitlement.js';
import { memoryStore } from '../store/memory-store.js';
import { offers } from '../test-support/fixtures.js';
import { reconcile } from './reconcile.js';
import { startReconciler } from './start-reconciler.js';

const NOW = new Date('2027-01-10T00:00:00.000Z');

function subscriptionRead(uid: string, status: Subscription['status']): Subscription {
  return {
    subscriptionUid: uid,
    status,
    productUid: 'prod_premium',
    offerUid: 'off_monthly',
    subscriberUid: 'sbr_1',
    currentPeriodEnd: '2027-02-01T00:00:00.000Z',
    cancelAt: null,
  };
}

/** A store holding `count` subscriptions whose period ended on 2027-01-01 with nothing heard since. */
async function dueStore(count: number) {
  const store = memoryStore();
  for (let i = 0; i < count; i++) {
    const accountKey = `user_${i}`;
    await store.update(accountKey, 'prod_premium', () =>
      exampleEntitlement({
        accountKey,
        offerUid: 'off_monthly',
        subscriptionUid: `sub_${i}`,
        currentPeriodEnd: '2027-01-01T00:00:00.000Z',
        trialEndsAt: null,
        lastEventAt: '2026-12-01T00:00:00.000Z',
      }),
    );
  }
  return store;
}

function fakeClient(read: (uid: string, signal?: AbortSignal) => Promise<Subscription>) {
  return {
    subscriptions: {
      retrieve: vi.fn((uid: string, options?: { signal?: AbortSignal }) => read(uid, options?.signal)),
    },
    payments: { retrieve: vi.fn() },
  } as never;
}

describe('dueReason', () => {
  const ended = exampleEntitlement({ currentPeriodEnd: '2027-01-01T00:00:00.000Z', trialEndsAt: null });
  it('says why a live subscription is due, and nothing once it was heard of after the date', () => {
    expect(dueReason(ended, null, { now: NOW, staleBefore: null })).toBe('period_ended');
    expect(dueReason(ended, '2027-01-02T00:00:00.000Z', { now: NOW, staleBefore: null })).toBeUndefined();
    expect(dueReason({ ...ended, status: 'REVOKED' }, null, { now: NOW, staleBefore: null })).toBeUndefined();
    const running = { ...ended, currentPeriodEnd: '2027-02-01T00:00:00.000Z' };
    expect(dueReason(running, null, { now: NOW, staleBefore: null })).toBeUndefined();
    expect(dueReason(running, null, { now: NOW, staleBefore: new Date('2027-01-01T00:00:00.000Z') })).toBe(
      'stale',
    );
  });
});

describe('reconcile', () => {
  it('refuses a store without the reconciliation methods, naming them', async () => {
    const { listDueEntitlements: _a, markReconciled: _b, ...plain } = memoryStore();
    const error = await reconcile({
      client: fakeClient(async () => subscriptionRead('x', 'ACTIVE')),
      store: plain as never,
      offers,
    }).catch((e) => e);
    expect(isDcbError(error, 'invalid_option')).toBe(true);
    expect(error.message).toMatch(/listDueEntitlements, markReconciled/);
  });

  it('reads with bounded concurrency and reports reads and changes', async () => {
    const store = await dueStore(10);
    let inFlight = 0;
    let most = 0;
    const client = fakeClient(async (uid) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return subscriptionRead(uid, 'EXPIRED');
    });
    const report = await reconcile({ client, store, offers, now: () => NOW, concurrency: 3, pageSize: 4 });
    expect(most).toBe(3);
    expect(report).toMatchObject({ checked: 10, reads: 10, unchanged: 0, failures: [] });
    expect(
      report.changes.every((change) => change.access === 'revoked' && change.before?.status === 'ACTIVE'),
    ).toBe(true);
  });

  it('stops cleanly on abort: no new read starts, and the report says aborted', async () => {
    const store = await dueStore(6);
    const controller = new AbortController();
    const client = fakeClient(async (uid) => {
      controller.abort();
      return subscriptionRead(uid, 'ACTIVE');
    });
    const report = await reconcile({
      client,
      store,
      offers,
      now: () => NOW,
      concurrency: 1,
      signal: controller.signal,
    });
    expect(report.stopped).toBe('aborted');
    expect(report.checked).toBe(1);
    expect(report.failures).toEqual([]);
  });

  it('files a failed read as a failure with its code and goes on', async () => {
    const store = await dueStore(3);
    const client = fakeClient(async (uid) => {
      if (uid === 'sub_1') throw Object.assign(new Error('boom'), {});
      return subscriptionRead(uid, 'EXPIRED');
    });
    const report = await reconcile({ client, store, offers, now: () => NOW });
    expect(report.failures.map((failure) => [failure.subscriptionUid, failure.code])).toEqual([
      ['sub_1', 'unknown'],
    ]);
    expect(report.changes).toHaveLength(2);
  });
});

describe('startReconciler', () => {
  it('runs at once under the store lock, skips a turn while another holds it, and stops', async () => {
    const store = await dueStore(1);
    const held = await store.tryLock?.('dcbkit:reconcile');
    const runs: string[] = [];
    const runOnce = vi.fn(async () => {
      runs.push('run');
      return { changes: [] } as never;
    });
    const skipped = startReconciler(runOnce, store, {}, { everyMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await skipped.stop();
    expect(runs).toEqual([]);
    await held?.();
    const reports: unknown[] = [];
    const reconciler = startReconciler(
      runOnce,
      store,
      {},
      { everyMs: 5, onReport: (report) => reports.push(report) },
    );
    await vi.waitFor(() => expect(runs.length).toBeGreaterThanOrEqual(2));
    await reconciler.stop();
    const count = runs.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs.length).toBe(count);
    expect(reports.length).toBe(count);
    expect(await store.tryLock?.('dcbkit:reconcile')).toBeTypeOf('function');
  });
});

describe('reconcile: history and dry runs', () => {
  it('records each repair in the history with source reconcile', async () => {
    const store = await dueStore(1);
    const client = fakeClient(async (uid) => subscriptionRead(uid, 'CANCELED'));
    const report = await reconcile({ client, store, offers, now: () => NOW });
    expect(report.changes).toHaveLength(1);
    expect(await store.listHistory({ accountKey: 'user_0', limit: 5 })).toEqual([
      expect.objectContaining({
        source: 'reconcile',
        decision: 'applied',
        eventName: 'subscription.read',
        subscriptionUid: 'sub_0',
        statusBefore: 'ACTIVE',
        statusAfter: 'REVOKED',
      }),
    ]);
  });

  it('with dryRun, reports the drift and changes nothing: no write, no mark, no history, no listener', async () => {
    const store = await dueStore(2);
    const accessRevoked = vi.fn();
    const client = fakeClient(async (uid) => subscriptionRead(uid, 'CANCELED'));
    const dry = await reconcile({
      client,
      store,
      offers,
      now: () => NOW,
      dryRun: true,
      on: { accessRevoked },
    });
    expect(dry.changes.map((change) => [change.accountKey, change.after.status, change.access])).toEqual([
      ['user_0', 'REVOKED', 'revoked'],
      ['user_1', 'REVOKED', 'revoked'],
    ]);
    expect((await store.get('user_0', 'prod_premium'))?.status).toBe('ACTIVE');
    expect(await store.listHistory({ accountKey: 'user_0', limit: 5 })).toEqual([]);
    expect(accessRevoked).not.toHaveBeenCalled();
    // Nothing was marked reconciled: a real run finds the same entitlements due.
    const real = await reconcile({ client, store, offers, now: () => NOW });
    expect(real.changes).toHaveLength(2);
  });
});

describe('reconcile: one account now', () => {
  it('reads every subscription of the account, due or not, and nothing of other accounts', async () => {
    const store = await dueStore(3);
    // Not due: heard of yesterday, period running.
    await store.update(
      'user_1',
      'prod_premium',
      (current) =>
        current && {
          ...current,
          currentPeriodEnd: '2027-02-01T00:00:00.000Z',
          lastEventAt: '2027-01-09T00:00:00.000Z',
        },
    );
    const client = fakeClient(async (uid) => subscriptionRead(uid, 'CANCELED'));
    const report = await reconcile({ client, store, offers, now: () => NOW, accountKey: 'user_1' });
    expect(report.changes.map((change) => [change.accountKey, change.reason])).toEqual([
      ['user_1', 'requested'],
    ]);
    expect((await store.get('user_0', 'prod_premium'))?.status).toBe('ACTIVE');
    await expect(reconcile({ client, store, offers, accountKey: '' })).rejects.toMatchObject({
      code: 'invalid_option',
    });
  });
});
