/**
 * Issue 22: an event dead-lettered while the shop was down is repaired by the running reconciler,
 * its history says so, `explain` shows the drift before and none after; `dcbkit-store reconcile
 * --dry-run` prints the drift and changes nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReconcileReport } from '@dcbkit/core';
import { offerDefinitionsOf } from '@dcbkit/sandbox';
import { pgliteStore } from '@dcbkit/store-postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { runStoreCli } from '../../packages/store-postgres/src/cli/run-cli.js';
import {
  DAY_SECONDS,
  type OutageWorld,
  pendingDeliveries,
  startOutageWorld,
  subscribe,
} from './outage-world.js';

/** Subscribes, then cancels NOW while the receiver is down, until the service dead-letters the event. */
async function lostCancellation(world: OutageWorld, accountKey: string): Promise<string> {
  const subscriptionUid = await subscribe(world, accountKey);
  expect(await pendingDeliveries(world)).toBe(0);
  world.receiver.up = false;
  await world.kit.client.subscriptions.cancel(subscriptionUid, { when: 'NOW' });
  for (let day = 0; day < 3; day++) await world.sandbox.advanceClock(DAY_SECONDS);
  expect(await pendingDeliveries(world)).toBe(0);
  expect(world.sandbox.webhooks().some((delivery) => delivery.status === 'DEAD_LETTERED')).toBe(true);
  world.receiver.up = true;
  return subscriptionUid;
}

describe('repairing a dead-lettered event', () => {
  let world: OutageWorld | undefined;
  const folders: string[] = [];
  afterEach(async () => {
    await world?.close();
    world = undefined;
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('the running reconciler repairs it, the history says reconcile, and explain shows the drift, then none', async () => {
    world = await startOutageWorld();
    const { kit } = world;
    await lostCancellation(world, 'user_lost');
    expect((await kit.store.get('user_lost', 'prod_premium'))?.status).toBe('TRIALING');

    const before = await kit.explain('user_lost', { read: true });
    expect(before.products[0]).toMatchObject({
      reason: { code: 'trialing', hasAccess: true },
      service: { status: 'REVOKED', drift: true },
    });

    const reports: ReconcileReport[] = [];
    // maxAgeMs 0: read every live subscription now (its period has not ended after 3 days).
    const reconciler = kit.startReconciler({
      everyMs: 60_000,
      maxAgeMs: 0,
      onReport: (report) => reports.push(report),
    });
    try {
      await expect.poll(() => reports.length, { timeout: 20_000 }).toBeGreaterThan(0);
    } finally {
      await reconciler.stop();
    }
    expect(reports[0]?.changes).toMatchObject([{ accountKey: 'user_lost', access: 'revoked' }]);
    const after = await kit.explain('user_lost', { read: true });
    expect(after.products[0]).toMatchObject({
      entitlement: { status: 'REVOKED' },
      reason: { code: 'revoked', hasAccess: false },
      service: { drift: false },
    });
    expect(after.products[0]?.history[0]).toMatchObject({
      source: 'reconcile',
      decision: 'applied',
      eventName: 'subscription.read',
      statusBefore: 'TRIALING',
      statusAfter: 'REVOKED',
    });
    // What the webhooks had applied before the outage is below it.
    expect(after.products[0]?.history.some((entry) => entry.source === 'webhook')).toBe(true);
  }, 60_000);

  it('dcbkit-store reconcile --dry-run prints the drift and changes nothing; the real run repairs it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dcbkit-repair-'));
    folders.push(dataDir);
    const opened = await pgliteStore({ dataDir });
    // The command reads by the real clock: the sandbox's starts four days ago, so that after the
    // outage's three days the entitlement is in the past, as in production.
    const sandboxStart = new Date(Date.now() - 4 * DAY_SECONDS * 1000).toISOString();
    world = await startOutageWorld({ kit: { store: opened.store, ledger: opened.ledger }, sandboxStart });
    await lostCancellation(world, 'user_lost');
    await opened.close();

    const offersFile = join(dataDir, '..', `${join(dataDir).split('/').pop()}-offers.json`);
    writeFileSync(offersFile, JSON.stringify(offerDefinitionsOf(world.sandbox.config)));
    folders.push(offersFile);
    const env = {
      DCB_ENV: 'sandbox',
      DCB_API_BASE_URL: world.sandbox.apiBaseUrl,
      DCB_CLIENT_ID: world.sandbox.credentials.clientId,
      DCB_CLIENT_SECRET: world.sandbox.credentials.clientSecret,
      DCB_WEBHOOK_SECRET: world.sandbox.credentials.webhookSecret,
      DCB_OFFERS_FILE: offersFile,
      DCB_PGLITE_DIR: dataDir,
    };
    // --max-age-hours 0: read every live subscription now (its period has not ended after 3 days).
    const lines: string[] = [];
    const cli = (args: string[]) =>
      runStoreCli(['reconcile', ...args, '--max-age-hours', '0'], env, (line) => lines.push(line));

    expect(await cli(['--dry-run'])).toBe(0);
    const dry = JSON.parse(lines.at(-1) ?? '{}');
    expect(dry).toMatchObject({
      dryRun: true,
      changes: [{ accountKey: 'user_lost', after: { status: 'REVOKED' } }],
    });
    const unchanged = await pgliteStore({ dataDir });
    try {
      expect((await unchanged.store.get('user_lost', 'prod_premium'))?.status).toBe('TRIALING');
    } finally {
      await unchanged.close();
    }

    expect(await cli([])).toBe(0);
    const repaired = await pgliteStore({ dataDir });
    try {
      expect((await repaired.store.get('user_lost', 'prod_premium'))?.status).toBe('REVOKED');
      const [latest] = await repaired.store.listHistory({ accountKey: 'user_lost', limit: 1 });
      expect(latest).toMatchObject({ source: 'reconcile', statusAfter: 'REVOKED' });
    } finally {
      await repaired.close();
    }
  }, 90_000);
});
