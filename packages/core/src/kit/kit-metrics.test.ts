import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { memoryStore } from '../store/memory-store.js';
import { chargeFields, DAY, dayAt, signedRequest, subscriptionEvent, T0 } from '../test-support/fixtures.js';
import { offlineKit } from '../test-support/offline-kit.js';

const day = dayAt;

const kitWith = offlineKit;

const trialEvent = (name: string, days: number, fields: Partial<WebhookEvent> = {}) =>
  subscriptionEvent('off_trial', name, days, fields);
const charge = (orderId: string, days: number, periodEnd: number) =>
  trialEvent('entitlement.updated', days, chargeFields(orderId, periodEnd));

const LIFE: WebhookEvent[] = [
  trialEvent('payment.succeeded', 0, {
    subscriptionStatus: 'TRIALING',
    currentPeriodEnd: day(7),
    trialEndsAt: day(7),
  }),
  { ...charge('ord_1', 7, 37), event: 'entitlement.granted' },
  charge('ord_2', 37, 67),
  trialEvent('entitlement.updated', 67, {
    subscriptionStatus: 'IN_GRACE',
    currentPeriodEnd: day(67),
    amountCollected: { amount: 0, currency: 'TND' },
    periodOutstanding: { amount: 4500, currency: 'TND' },
  }),
  charge('ord_3', 69, 99),
  trialEvent('subscription.expired', 99, { subscriptionStatus: 'EXPIRED', currentPeriodEnd: day(99) }),
];

/** Delivers as the service does: signed now (the handler checks signatures against the real time). */
async function deliver(kit: ReturnType<typeof kitWith>, event: WebhookEvent) {
  return kit.webhook(signedRequest(event, new Date()));
}

const whole = { from: new Date(T0), to: new Date(T0 + 100 * DAY) };

describe('kit.metrics', () => {
  it('counts each fact of the webhooks once, however often delivered, by the day it happened', async () => {
    const kit = kitWith();
    for (const event of LIFE) {
      expect((await deliver(kit, event)).status).toBe(200);
      expect((await deliver(kit, event)).status).toBe(200);
    }
    const report = await kit.metrics({ ...whole, interval: 'month' });
    const trial = report.rows.filter((row) => row.offerUid === 'off_trial');
    const sum = (pick: (row: (typeof trial)[number]) => number) =>
      trial.reduce((total, row) => total + pick(row), 0);
    expect({
      trialsStarted: sum((row) => row.trialsStarted),
      trialsConverted: sum((row) => row.trialsConverted),
      renewalsCollected: sum((row) => row.renewalsCollected),
      renewalsFailed: sum((row) => row.renewalsFailed),
      graceRecovered: sum((row) => row.graceRecovered),
      expired: sum((row) => row.churned.expired),
      collected: sum((row) => row.collected.amount),
    }).toEqual({
      trialsStarted: 1,
      trialsConverted: 1,
      renewalsCollected: 2,
      renewalsFailed: 1,
      graceRecovered: 1,
      expired: 1,
      collected: 3 * 4500,
    });
    // November to March: the subscription ends on February 28.
    expect(trial.map((row) => row.activeSubscribers)).toEqual([1, 1, 1, 0, 0]);
    expect(report.interval).toBe('month');
    expect(trial[0]?.start).toBe('2026-11-01T00:00:00.000Z');
  });

  it('answers the webhook 500 when the facts cannot be written, and counts them once on the retry', async () => {
    const store = memoryStore();
    let failures = 1;
    const failingOnce = {
      ...store,
      async recordMetrics(entries: Parameters<typeof store.recordMetrics>[0]) {
        if (failures-- > 0) throw new Error('metrics table unavailable');
        return store.recordMetrics(entries);
      },
    };
    const kit = kitWith({ store: failingOnce });
    const [started] = LIFE;
    expect((await deliver(kit, started as WebhookEvent)).status).toBe(500);
    expect((await deliver(kit, started as WebhookEvent)).status).toBe(200);
    const rows = (await kit.metrics(whole)).rows.filter((row) => row.offerUid === 'off_trial');
    expect(rows.reduce((total, row) => total + row.trialsStarted, 0)).toBe(1);
  });

  it('refuses a query it cannot answer, and a store that keeps no metrics, naming what to change', async () => {
    const kit = kitWith();
    await expect(kit.metrics({ from: new Date('x'), to: new Date() })).rejects.toMatchObject({
      code: 'invalid_option',
      details: { option: 'from' },
    });
    await expect(kit.metrics({ from: new Date(T0), to: new Date(T0) })).rejects.toMatchObject({
      details: { option: 'to' },
    });
    await expect(kit.metrics({ ...whole, interval: 'year' as unknown as 'day' })).rejects.toMatchObject({
      details: { option: 'interval' },
    });
    await expect(kitWith({ metrics: false }).metrics(whole)).rejects.toMatchObject({
      code: 'invalid_option',
      details: { option: 'store' },
    });
  });

  it('gives the headline figures of the period beside the one as long before it, for one offer or all', async () => {
    const kit = kitWith();
    for (const event of LIFE) expect((await deliver(kit, event)).status).toBe(200);
    // Days 60 to 80: the renewal due on day 67 failed into grace and was recovered on day 69.
    const period = { from: new Date(T0 + 60 * DAY), to: new Date(T0 + 80 * DAY), interval: 'day' as const };
    const { totals, rows } = await kit.metrics({ ...period, offerUid: 'off_trial' });
    expect(new Set(rows.map((row) => row.offerUid))).toEqual(new Set(['off_trial']));
    expect(totals.activeSubscribers).toEqual({ value: 1, previous: 1 });
    expect(totals.graceRecoveryRate).toEqual({ value: 1, previous: null });
    // Days 40 to 60 had no charge due: nothing to rate.
    expect(totals.firstAttemptCollectionRate).toEqual({ value: 0, previous: null });
    expect(totals.churnRate).toEqual({ value: 0, previous: 0 });
    const other = await kit.metrics({ ...period, offerUid: 'off_monthly' });
    expect(other.totals.activeSubscribers).toEqual({ value: 0, previous: 0 });
    await expect(kit.metrics({ ...period, offerUid: '' })).rejects.toMatchObject({
      code: 'invalid_option',
    });
  });

  it('answers kit.checkoutFunnel with a row per bucket and offer, and refuses its queries naming the method', async () => {
    const kit = kitWith();
    const funnel = await kit.checkoutFunnel({ ...whole, interval: 'month' });
    expect(funnel.interval).toBe('month');
    expect(funnel.rows[0]).toMatchObject({ start: '2026-11-01T00:00:00.000Z', started: 0, pending: 0 });
    await expect(kit.checkoutFunnel({ from: new Date('x'), to: new Date() })).rejects.toMatchObject({
      code: 'invalid_option',
      details: { option: 'from' },
      message: expect.stringContaining('kit.checkoutFunnel'),
    });
    await expect(kitWith({ metrics: false }).checkoutFunnel(whole)).rejects.toMatchObject({
      code: 'invalid_option',
      details: { option: 'store' },
      message: expect.stringContaining('kit.checkoutFunnel'),
    });
  });
});
