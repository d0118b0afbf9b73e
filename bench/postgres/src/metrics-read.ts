/**
 * The business view at scale: a year of daily `kit.metrics` on postgresStore once the facts of
 * 100,000 and of 1,000,000 subscribers are recorded (10 facts each over the year: a start, eight
 * renewals, a grace and its recovery or an ending; 1,000,000 and 10,000,000 facts, what that many
 * entitlements' history holds in a year). Goal: under 1 s at 1,000,000, and the read growing far
 * slower than the facts (it reads the daily totals, never the facts).
 *
 * The facts go in through the store's own `recordMetrics`, 5,000 a call, as the kit writes them;
 * the time that takes is printed too. Each size has a schema of its own, dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { createDcbKit, defineOffers } from '@dcbkit/core';
import type { MetricEntry, MetricKind } from '@dcbkit/core/store';
import { postgresStore } from '@dcbkit/store-postgres';
import pg from 'pg';
import { median } from './latency.js';

const SIZES = [100_000, 1_000_000] as const;
const BATCH = 5_000;
const ROUNDS = 7;
const GOAL_MS = 1_000;
const YEAR_START = Date.parse('2030-01-01T00:00:00.000Z');
const DAY_MS = 86_400_000;

const offers = defineOffers(
  ['monthly', 'weekly', 'yearly', 'trial'].map((name) => ({
    offerUid: `off_${name}`,
    productUid: 'prod_premium',
    name,
    type: 'SUBSCRIPTION' as const,
    price: { amount: 4500, currency: 'TND' },
    billingPeriod: { unit: 'MONTH' as const, count: 1 },
  })),
);
const OFFER_UIDS = offers.list.map((offer) => offer.offerUid);

/** The ten facts of subscriber `n`: spread over the year by its number, as a real base would be. */
function factsOf(n: number): MetricEntry[] {
  const offerUid = OFFER_UIDS[n % OFFER_UIDS.length] as string;
  const startDay = n % 60;
  const fact = (
    index: number,
    kind: MetricKind,
    day: number,
    live: -1 | 0 | 1,
    amount: number,
  ): MetricEntry => ({
    key: `bench:${n}:${index}`,
    kind,
    offerUid,
    productUid: 'prod_premium',
    occurredAt: new Date(YEAR_START + Math.min(day, 364) * DAY_MS + (n % 86_400) * 1000).toISOString(),
    count: 1,
    amount,
    currency: 'TND',
    live,
  });
  const facts = [fact(0, 'new_subscription', startDay, 1, 4500)];
  for (let renewal = 1; renewal <= 8; renewal++) {
    facts.push(fact(renewal, 'renewal_collected', startDay + renewal * 30, 0, 4500));
  }
  facts.push(
    n % 3 === 0
      ? fact(9, 'churn_canceled', startDay + 275, -1, 0)
      : fact(9, n % 3 === 1 ? 'renewal_failed' : 'grace_recovered', startDay + 270, 0, 0),
  );
  return facts;
}

async function sizePart(databaseUrl: string, subscribers: number): Promise<number> {
  const schema = `dcbkit_bench_metrics_${randomBytes(4).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const sql = postgresStore({ pool, schema });
    await sql.migrate();
    const written = performance.now();
    let batch: MetricEntry[] = [];
    for (let n = 0; n < subscribers; n++) {
      batch.push(...factsOf(n));
      if (batch.length >= BATCH) {
        await sql.store.recordMetrics(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await sql.store.recordMetrics(batch);
    const writeSeconds = (performance.now() - written) / 1000;
    await pool.query(`ANALYZE "${schema}".dcbkit_metric_days`);
    const kit = createDcbKit({
      client: {
        environment: 'sandbox',
        baseUrl: 'http://127.0.0.1:1',
        clientId: 'svc_test_bench',
        clientSecret: 'x',
      },
      webhookSecrets: 'whsec_bench_metrics',
      offers,
      store: sql.store,
      logger: {},
    });
    const query = {
      from: new Date(YEAR_START),
      to: new Date(YEAR_START + 365 * DAY_MS),
      interval: 'day' as const,
    };
    const timings: number[] = [];
    let rows = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      const report = await kit.metrics(query);
      timings.push(performance.now() - started);
      rows = report.rows.length;
    }
    const read = median(timings);
    const facts = subscribers * 10;
    console.log(
      `  ${subscribers.toLocaleString('en')} subscribers, ${facts.toLocaleString('en')} facts: written in ${writeSeconds.toFixed(0)} s ` +
        `(${Math.round(facts / writeSeconds).toLocaleString('en')} facts/s); a year of daily metrics (${rows} rows) in ${read.toFixed(1)} ms (median of ${ROUNDS})`,
    );
    return read;
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
}

export async function metricsReadPart(databaseUrl: string): Promise<void> {
  const [small, large] = [
    await sizePart(databaseUrl, SIZES[0]),
    await sizePart(databaseUrl, SIZES[1]),
  ] as const;
  const growth = large / small;
  console.log(
    `  from ${SIZES[0].toLocaleString('en')} to ${SIZES[1].toLocaleString('en')} subscribers: the read x${growth.toFixed(2)} ` +
      `for x10 the facts; ${large.toFixed(1)} ms at ${SIZES[1].toLocaleString('en')} (goal < ${GOAL_MS} ms): ${large < GOAL_MS ? 'PASS' : 'FAIL'}`,
  );
}
