import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { memoryStore } from '../store/memory-store.js';
import { chargeFields, DAY, dayAt, signedRequest, subscriptionEvent, T0 } from '../test-support/fixtures.js';
import { offlineKit } from '../test-support/offline-kit.js';

const trialEvent = (name: string, days: number, fields: Partial<WebhookEvent> = {}) =>
  subscriptionEvent('off_trial', name, days, fields);

/** A trial begun at T0, converted at day 7, cancelled now at day 50. */
const LIFE: WebhookEvent[] = [
  trialEvent('payment.succeeded', 0, {
    subscriptionStatus: 'TRIALING',
    currentPeriodEnd: dayAt(7),
    trialEndsAt: dayAt(7),
  }),
  { ...trialEvent('entitlement.granted', 7, chargeFields('ord_1', 37)) },
  trialEvent('subscription.canceled', 50, { subscriptionStatus: 'CANCELED', currentPeriodEnd: dayAt(67) }),
];

const whole = { from: new Date(T0), to: new Date(T0 + 100 * DAY) };

describe('kit.cohorts, kit.revenueMovements and kit.trialFunnel', () => {
  it("follow a subscription's life from the webhooks, however often and in whatever order delivered", async () => {
    const kit = offlineKit({ now: () => new Date(T0 + 120 * DAY) });
    for (const event of [...LIFE].reverse().concat(LIFE)) {
      expect((await kit.webhook(signedRequest(event, new Date()))).status).toBe(200);
    }
    const funnel = await kit.trialFunnel({ ...whole, interval: 'month' });
    const trials = funnel.rows.filter((row) => row.started > 0);
    expect(trials.map(({ started, converted }) => ({ started, converted }))).toEqual([
      { started: 1, converted: 1 },
    ]);
    const movements = await kit.revenueMovements({ ...whole, interval: 'month' });
    const moved = movements.rows.filter((row) => row.offerUid === 'off_trial');
    expect(moved.reduce((sum, row) => sum + row.newSubscriptions, 0)).toBe(1);
    expect(moved.reduce((sum, row) => sum + row.churnedSubscriptions, 0)).toBe(1);
    expect(moved.at(-1)?.recurringRevenue.amount).toBe(0);
    const cohorts = await kit.cohorts(whole);
    const cohort = cohorts.rows.find((row) => row.size > 0);
    expect(cohort?.offerUid).toBe('off_trial');
    expect(cohort?.retained[0]?.subscribers).toBe(1);
    expect(cohort?.retained.at(-2)).toMatchObject({ subscribers: 0, complete: true });
    // The month holding the kit's clock has not ended.
    expect(cohort?.retained.at(-1)).toMatchObject({ subscribers: 0, complete: false });
  });

  it('refuses a query it cannot answer, and a store that keeps no lifecycles, naming what to change', async () => {
    const kit = offlineKit();
    await expect(kit.cohorts({ ...whole, interval: 'week' as unknown as 'month' })).rejects.toMatchObject({
      code: 'invalid_option',
      details: { option: 'interval' },
    });
    await expect(kit.revenueMovements({ from: new Date('x'), to: new Date() })).rejects.toMatchObject({
      code: 'invalid_option',
      details: { option: 'from' },
    });
    await expect(kit.trialFunnel({ from: new Date(T0), to: new Date(T0) })).rejects.toMatchObject({
      details: { option: 'to' },
    });
    const { readCohortCounts: _, ...withoutLifecycles } = memoryStore();
    for (const kitWithout of [offlineKit({ metrics: false }), offlineKit({ store: withoutLifecycles })]) {
      await expect(kitWithout.cohorts(whole)).rejects.toMatchObject({
        code: 'invalid_option',
        details: { option: 'store' },
      });
    }
  });
});
