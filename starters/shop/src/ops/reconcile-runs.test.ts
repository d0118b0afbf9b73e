import type { Entitlement, ReconcileReport } from '@dcbkit/core';
import { describe, expect, it } from 'vitest';
import { createReconcileRuns } from './reconcile-runs.js';

const pass = (unitsBought: number) =>
  ({ type: 'CONSUMABLE', status: 'ACTIVE', unitsBought, unitsUsed: 0 }) as unknown as Entitlement;

function report(startedAt: string, changes = 0): ReconcileReport {
  return {
    startedAt,
    finishedAt: startedAt,
    checked: changes,
    reads: changes,
    changes: Array.from({ length: changes }, (_, index) => ({
      accountKey: `user_${index}`,
      productUid: 'prod_day_pass',
      reason: 'pending_payment' as const,
      paymentUid: `pay_${index}`,
      before: undefined,
      after: pass(1),
      access: 'granted' as const,
    })),
    unchanged: 0,
    settledPayments: changes,
    failures: [
      {
        reason: 'stale',
        accountKey: 'user_x',
        productUid: 'prod_premium',
        code: 'timeout',
        message: 'no answer',
        error: new Error('with a response inside'),
      },
    ],
    rateLimitWaits: 0,
  };
}

describe('the last reconcile runs', () => {
  it('keeps the last 10, newest first', () => {
    const runs = createReconcileRuns();
    for (let minute = 10; minute < 25; minute++) runs.add(report(`2026-05-01T10:${minute}:00.000Z`));
    const kept = runs.list();
    expect(kept).toHaveLength(10);
    expect(kept[0]?.startedAt).toBe('2026-05-01T10:24:00.000Z');
    expect(kept[9]?.startedAt).toBe('2026-05-01T10:15:00.000Z');
  });

  it('keeps what the view shows of each: counts, the first 50 changes, failures by code only', () => {
    const summary = createReconcileRuns().add(report('2026-05-01T10:00:00.000Z', 120), 'user_0');
    expect(summary).toMatchObject({ accountKey: 'user_0', checked: 120, changeCount: 120, failureCount: 1 });
    expect(summary.changes).toHaveLength(50);
    expect(summary.changes[0]).toEqual({
      accountKey: 'user_0',
      productUid: 'prod_day_pass',
      reason: 'pending_payment',
      statusBefore: null,
      statusAfter: 'ACTIVE',
      unitsBefore: null,
      unitsAfter: 1,
      access: 'granted',
    });
    expect(summary.failures).toEqual([
      { accountKey: 'user_x', productUid: 'prod_premium', reason: 'stale', code: 'timeout' },
    ]);
  });
});
