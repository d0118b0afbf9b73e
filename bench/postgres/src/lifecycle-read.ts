/**
 * The views that follow each subscription, at scale: kit.cohorts (a year of monthly cohorts),
 * kit.revenueMovements and kit.trialFunnel (a year of days) on postgresStore once the lifecycle
 * records of 1,000,000 subscribers are written (a year's: 40% began with a trial, of which most
 * converted; a third of the paid ended; one in ten came back with a second subscription). Goal:
 * each view under 1 s (a GROUP BY over an index each: the read grows with the buckets, not the
 * subscribers, but for the scan of the year's rows).
 *
 * The records go in through the store's own `recordLifecycles`, 5,000 a call, as the kit writes
 * them (under each subscriber's lock, then their derived columns); the time that takes is printed too.
 */
import { randomBytes } from 'node:crypto';
import { createDcbKit, defineOffers } from '@dcbkit/core';
import type { SubscriptionLifecycle } from '@dcbkit/core/store';
import { postgresStore } from '@dcbkit/store-postgres';
import pg from 'pg';
import { median } from './latency.js';

const SUBSCRIBERS = 1_000_000;
const BATCH = 5_000;
const ROUNDS = 5;
const GOAL_MS = 1_000;
const YEAR_START = Date.parse('2030-01-01T00:00:00.000Z');
const DAY_MS = 86_400_000;

const offers = defineOffers(
  ['monthly', 'trial'].map((name) => ({
    offerUid: `off_${name}`,
    productUid: 'prod_premium',
    name,
    type: 'SUBSCRIPTION' as const,
    price: { amount: 4500, currency: 'TND' },
    billingPeriod: { unit: 'MONTH' as const, count: 1 },
    ...(name === 'trial' ? { trialDays: 7 } : {}),
  })),
);

const at = (day: number, n: number) => ({
  at: new Date(YEAR_START + Math.min(day, 364) * DAY_MS + (n % 86_400) * 1000).toISOString(),
  provisional: false,
});

/** Subscriber `n`'s subscriptions, spread over the year by its number. */
function lifecyclesOf(n: number): SubscriptionLifecycle[] {
  const trial = n % 5 < 2;
  const start = n % 300;
  const common = {
    accountKey: `account_${n}`,
    productUid: 'prod_premium',
    offerUid: trial ? 'off_trial' : 'off_monthly',
    currency: 'TND',
    monthlyValue: 4500,
  };
  const converted = !trial || n % 7 !== 0;
  const first: SubscriptionLifecycle = {
    ...common,
    subscriptionUid: `sub_${n}`,
    ...(trial ? { trialStartedAt: at(start, n) } : {}),
    ...(converted ? { firstPaidAt: at(trial ? start + 7 : start, n) } : {}),
    ...(n % 3 === 0 || !converted
      ? {
          endedAt: at(start + (converted ? 40 : 10), n),
          endCause: n % 2 === 0 ? ('canceled' as const) : ('suspended' as const),
        }
      : {}),
  };
  if (n % 30 !== 0) return [first];
  // One in ten of those who ended comes back with a paid subscription two months later.
  return [
    first,
    { ...common, offerUid: 'off_monthly', subscriptionUid: `sub_${n}_back`, firstPaidAt: at(start + 100, n) },
  ];
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const timings: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    await run();
    timings.push(performance.now() - started);
  }
  return median(timings);
}

export async function lifecycleReadPart(databaseUrl: string): Promise<void> {
  const schema = `dcbkit_bench_lifecycles_${randomBytes(4).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const sql = postgresStore({ pool, schema });
    await sql.migrate();
    const written = performance.now();
    let batch: SubscriptionLifecycle[] = [];
    let records = 0;
    for (let n = 0; n < SUBSCRIBERS; n++) {
      batch.push(...lifecyclesOf(n));
      if (batch.length >= BATCH) {
        records += batch.length;
        await sql.store.recordLifecycles(batch);
        batch = [];
      }
    }
    records += batch.length;
    if (batch.length > 0) await sql.store.recordLifecycles(batch);
    const writeSeconds = (performance.now() - written) / 1000;
    await pool.query(`ANALYZE "${schema}".dcbkit_subscription_lifecycles`);
    const kit = createDcbKit({
      client: {
        environment: 'sandbox',
        baseUrl: 'http://127.0.0.1:1',
        clientId: 'svc_test_bench',
        clientSecret: 'x',
      },
      webhookSecrets: 'whsec_bench_lifecycles',
      offers,
      store: sql.store,
      logger: {},
      now: () => new Date(YEAR_START + 365 * DAY_MS),
    });
    const year = { from: new Date(YEAR_START), to: new Date(YEAR_START + 365 * DAY_MS) };
    console.log(
      `  ${SUBSCRIBERS.toLocaleString('en')} subscribers, ${records.toLocaleString('en')} subscriptions: written in ${writeSeconds.toFixed(0)} s ` +
        `(${Math.round(records / writeSeconds).toLocaleString('en')} records/s)`,
    );
    const views = [
      ['kit.cohorts, a year by month', () => kit.cohorts({ ...year, interval: 'month' })],
      ['kit.revenueMovements, a year by day', () => kit.revenueMovements({ ...year, interval: 'day' })],
      ['kit.trialFunnel, a year by day', () => kit.trialFunnel({ ...year, interval: 'day' })],
    ] as const;
    for (const [name, run] of views) {
      const read = await time(run);
      console.log(
        `  ${name}: ${read.toFixed(1)} ms (median of ${ROUNDS}; goal < ${GOAL_MS} ms): ${read < GOAL_MS ? 'PASS' : 'FAIL'}`,
      );
    }
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
}
