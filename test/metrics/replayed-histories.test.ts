/**
 * Histories that once broke the business view, each the smallest the random histories shrank it
 * to (random-histories.test.ts prints a failing one in this form), and issue 49's first report.
 */
import { memoryStore } from '@dcbkit/core';
import { describe, expect, it } from 'vitest';
import { describeMismatch, mismatchOf } from './history-check.js';
import type { History } from './history-steps.js';
import { startPlantedWorld } from './planted-world.js';
import { playHistory } from './play-history.js';

async function expectHistoryHolds(history: History): Promise<void> {
  const mismatch = await mismatchOf(memoryStore(), history);
  if (mismatch) expect.fail(describeMismatch(mismatch));
}

const calm = { seed: 0, duplicate: 0, reorder: 0 };

describe('histories that once broke the business view', () => {
  it('three paid subscribers, one cancels now through the routes: 3 active in January, 2 in February', async () => {
    const world = await startPlantedWorld(memoryStore());
    try {
      const history: History = {
        chaos: calm,
        linePolicy: 'report',
        steps: [
          ...[0, 1, 2].map((account) => ({
            do: 'buy' as const,
            account,
            offer: 'paid' as const,
            line: account,
            via: 'routes' as const,
            returnPage: true,
          })),
          { do: 'wait', hours: 40 * 24 },
          { do: 'cancel', account: 1, pick: 0, when: 'NOW', via: 'routes' },
          { do: 'wait', hours: 20 * 24 },
        ],
      };
      await playHistory(world, history);
      const report = await world.kit.metrics({
        from: new Date('2030-01-01T00:00:00.000Z'),
        to: new Date('2030-03-01T00:00:00.000Z'),
        interval: 'month',
      });
      const paid = report.rows.filter((row) => row.offerUid === 'offer_premium_monthly_paid');
      expect(paid.map((row) => row.activeSubscribers)).toEqual([3, 2]);
      expect(paid[1]?.churned.canceled).toBe(1);
    } finally {
      await world.close();
    }
  });

  it('a cancel now through the routes counts the subscriber out', async () => {
    await expectHistoryHolds({
      chaos: calm,
      linePolicy: 'report',
      steps: [
        { do: 'buy', account: 4, offer: 'trial', line: 0, via: 'routes', returnPage: false },
        { do: 'cancel', account: 4, pick: 0, when: 'NOW', via: 'routes' },
      ],
    });
  });

  it('a returning subscriber is a new subscription, whatever arrives first', async () => {
    await expectHistoryHolds({
      chaos: { seed: 257562, duplicate: 0, reorder: 0.5 },
      linePolicy: 'report',
      steps: [
        { do: 'buy', account: 2, offer: 'weekly', line: 0, via: 'routes', returnPage: false },
        { do: 'cancel', account: 2, pick: 0, when: 'NOW', via: 'routes' },
        { do: 'buy', account: 2, offer: 'weekly', line: 0, via: 'routes', returnPage: false },
      ],
    });
  });

  it('a renewal on 1 March after a conversion on 1 February is a renewal (a 28-day month)', async () => {
    await expectHistoryHolds({
      chaos: calm,
      linePolicy: 'report',
      steps: [
        { do: 'wait', hours: 24 * 24 },
        { do: 'buy', account: 0, offer: 'trial', line: 0, via: 'routes', returnPage: false },
        { do: 'wait', hours: 40 * 24 },
      ],
    });
  });
  it('a first payment whose entitlement.granted arrives after its cancellation is new, not a renewal', async () => {
    await expectHistoryHolds({
      chaos: { seed: 109045, duplicate: 0.5, reorder: 0.5 },
      linePolicy: 'report',
      steps: [
        { do: 'buy', account: 0, offer: 'trial', line: 0, via: 'routes', returnPage: false },
        { do: 'buy', account: 4, offer: 'paid', line: 0, via: 'routes', returnPage: false },
        { do: 'cancel', account: 4, pick: 0, when: 'NOW', via: 'api' },
        { do: 'outage', hours: 1 },
      ],
    });
  });
  it('a recovery that a reconciliation read told first is dated when the charge opened its period', async () => {
    await expectHistoryHolds({
      chaos: calm,
      linePolicy: 'report',
      steps: [
        { do: 'buy', account: 3, offer: 'trial', line: 0, via: 'routes', returnPage: false },
        { do: 'outage', hours: 33 },
        { do: 'wait', hours: 573 },
        { do: 'renewals', account: 3, pick: 0, fail: 'twice' },
        { do: 'wait', hours: 337 },
        { do: 'outage', hours: 41 },
        { do: 'wait', hours: 1 },
      ],
    });
  });

  it('a grace replayed after the read of its recovery recovers once, from the period left unpaid', async () => {
    await expectHistoryHolds({
      chaos: calm,
      linePolicy: 'report',
      steps: [
        { do: 'buy', account: 1, offer: 'trial', line: 0, via: 'routes', returnPage: false },
        { do: 'wait', hours: 133 },
        { do: 'renewals', account: 1, pick: 0, fail: 'once' },
        { do: 'outage', hours: 83 },
        { do: 'buy', account: 0, offer: 'trial', line: 0, via: 'routes', returnPage: false },
      ],
    });
  });

  it('a weekly plan whose grace withholds access comes back once after an outage', async () => {
    await expectHistoryHolds({
      chaos: calm,
      linePolicy: 'report',
      steps: [
        { do: 'buy', account: 2, offer: 'weekly', line: 0, via: 'routes', returnPage: false },
        { do: 'outage', hours: 42 },
        { do: 'wait', hours: 437 },
        { do: 'renewals', account: 2, pick: 0, fail: 'once' },
        { do: 'outage', hours: 49 },
        { do: 'wait', hours: 1 },
      ],
    });
  });
  it('a returning subscriber’s trial in grace recovers nothing from the period end of the plan before', async () => {
    await expectHistoryHolds({
      chaos: calm,
      linePolicy: 'report',
      steps: [
        { do: 'buy', account: 1, offer: 'paid', line: 0, via: 'routes', returnPage: false },
        { do: 'cancel', account: 1, pick: 0, when: 'NOW', via: 'routes' },
        { do: 'refuse', account: 1, offer: 'trial', as: 'declined' },
        { do: 'wait', hours: 120 },
      ],
    });
  });

  it('every ending of a checkout the routes started, each in the bucket it started (the checkout funnel)', async () => {
    const world = await startPlantedWorld(memoryStore());
    try {
      const history: History = {
        chaos: calm,
        linePolicy: 'report',
        steps: [
          { do: 'buy', account: 0, offer: 'trial', line: 0, via: 'routes', returnPage: false },
          // The same line's second trial: SUB-108, refused; told by payment.failed, its code read.
          { do: 'buy', account: 1, offer: 'trial', line: 0, via: 'routes', returnPage: false },
          { do: 'refuse', account: 2, offer: 'paid', as: 'opted-out', via: 'routes' },
          { do: 'refuse', account: 3, offer: 'paid', as: 'no-balance', via: 'routes' },
          { do: 'refuse', account: 4, offer: 'unlock', as: 'wrong-pin', via: 'routes' },
          { do: 'refuse', account: 5, offer: 'unlock', as: 'left-to-expire', via: 'routes' },
          // Before midnight, ended after it: in the first day's bucket still.
          { do: 'wait', hours: 23 },
          { do: 'refuse', account: 6, offer: 'pass', as: 'declined', via: 'routes' },
          { do: 'wait', hours: 48 },
        ],
      };
      await playHistory(world, history);
      const funnel = await world.kit.checkoutFunnel({
        from: new Date('2030-01-01T00:00:00.000Z'),
        to: new Date('2030-01-08T00:00:00.000Z'),
        interval: 'week',
      });
      const total = (pick: (row: (typeof funnel.rows)[number]) => number) =>
        funnel.rows.reduce((sum, row) => sum + pick(row), 0);
      const codes = (pick: (row: (typeof funnel.rows)[number]) => Record<string, number>) =>
        funnel.rows.reduce<Record<string, number>>((all, row) => {
          for (const [code, count] of Object.entries(pick(row))) all[code] = (all[code] ?? 0) + count;
          return all;
        }, {});
      expect({
        started: total((row) => row.started),
        succeeded: total((row) => row.succeeded),
        refused: codes((row) => row.refused),
        failed: codes((row) => row.failed),
        expired: total((row) => row.expired),
        pending: total((row) => row.pending),
      }).toEqual({
        started: 7,
        succeeded: 1,
        refused: { 'RSK-101': 1, 'SUB-108': 1 },
        failed: { 'PAY-101': 1, 'PAY-103': 1, none: 1 },
        expired: 1,
        pending: 0,
      });
    } finally {
      await world.close();
    }
    await expectHistoryHolds({
      chaos: calm,
      linePolicy: 'report',
      steps: [
        { do: 'buy', account: 0, offer: 'trial', line: 0, via: 'routes', returnPage: true },
        { do: 'buy', account: 1, offer: 'trial', line: 0, via: 'routes', returnPage: true },
        { do: 'refuse', account: 2, offer: 'paid', as: 'unsupported-operator', via: 'routes' },
        { do: 'refuse', account: 3, offer: 'paid', as: 'abandoned', via: 'routes' },
        { do: 'outage', hours: 30 },
      ],
    });
  });

  it('a checkout the routes hand back after it ended cannot be abandoned, and counts once', async () => {
    await expectHistoryHolds({
      chaos: { seed: 74659, duplicate: 0.5, reorder: 0.2 },
      linePolicy: 'report',
      steps: [
        { do: 'buy', account: 1, offer: 'trial', line: 0, via: 'routes', returnPage: false },
        { do: 'wait', hours: 168 },
        { do: 'refuse', account: 0, offer: 'paid', as: 'declined', via: 'routes' },
        { do: 'refuse', account: 0, offer: 'trial', as: 'abandoned', via: 'routes' },
        { do: 'renewals', account: 0, pick: 0, fail: 'once' },
      ],
    });
  });
});
