import { afterEach, describe, expect, it } from 'vitest';
import { DAY_SECONDS, type OutageWorld, startOutageWorld, subscribe } from './outage-world.js';

describe('reconciliation against a rate-limited application', () => {
  let world: OutageWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('waits out SEC-001 (Retry-After) and finishes without a failure', async () => {
    // The client leaves SEC-001 to reconcile (no retries of its own), so the pauses are visible.
    world = await startOutageWorld({ client: { maxRetries: 0 } });
    const { sandbox, kit } = world;
    const accounts = ['user_a', 'user_b', 'user_c', 'user_d', 'user_e'];
    for (const account of accounts) await subscribe(world, account);
    world.receiver.up = false;
    for (let day = 0; day < 12; day++) await sandbox.advanceClock(DAY_SECONDS);
    await sandbox.deliverDue();

    // From now on: two API requests per minute of sandbox time.
    const application = sandbox.config.applications[0];
    if (application === undefined) throw new Error('no application');
    application.rateLimit = { requests: 2, windowSeconds: 60 };
    const slept: number[] = [];
    const report = await kit.reconcile({
      concurrency: 3,
      maxRateLimitWaits: 20,
      // The sandbox's clock is frozen: waiting means moving it.
      sleep: async (ms) => {
        slept.push(ms);
        await sandbox.advanceClock(ms / 1000);
      },
    });
    expect(report.failures).toEqual([]);
    expect(report.stopped).toBeUndefined();
    expect(report.rateLimitWaits).toBeGreaterThan(0);
    expect(slept.every((ms) => ms > 0 && ms <= 60_000)).toBe(true);
    expect(report.changes.map((change) => change.after.status)).toEqual(accounts.map(() => 'ACTIVE'));
    for (const account of accounts) {
      expect((await kit.store.get(account, 'prod_premium'))?.status).toBe('ACTIVE');
    }
  });

  it('stops cleanly when the budget of pauses is spent, and says so', async () => {
    world = await startOutageWorld({ client: { maxRetries: 0 } });
    const { sandbox, kit } = world;
    for (const account of ['user_a', 'user_b', 'user_c']) await subscribe(world, account);
    for (let day = 0; day < 12; day++) await sandbox.advanceClock(DAY_SECONDS);
    world.receiver.up = false;
    const application = sandbox.config.applications[0];
    if (application === undefined) throw new Error('no application');
    application.rateLimit = { requests: 1, windowSeconds: 3600 };
    // Renewals were delivered; make them due again by reading far in the future.
    const report = await kit.reconcile({ maxAgeMs: 0, maxRateLimitWaits: 0, sleep: async () => {} });
    expect(report.stopped).toBe('rate_limited');
    expect(report.failures.map((failure) => failure.code)).toContain('SEC-001');
  });
});
