/**
 * The business views at scale (issue 49's "a year of daily buckets at 1,000,000 subscribers: each
 * view under 1 s"): each view of view-entries.ts is filled with a year of facts for 1,000,000
 * subscribers in bulk SQL, into a `postgresStore` of a schema of its own (dropped at the end),
 * then read through the kit as the Business page reads it, for a year by day, by week and by month.
 * Prints each read's median, min and max over the rounds and its ratio to the 1 s target.
 * `--subscribers N` fills fewer, for a quick run.
 */
import { randomBytes } from 'node:crypto';
import { createDcbKit } from '@dcbkit/core';
import { postgresStore } from '@dcbkit/store-postgres';
import pg from 'pg';
import { YEAR_START } from './bulk-metric-facts.js';
import { median } from './latency.js';
import { benchOffers, VIEWS_AT_SCALE, type ViewAtScale, type ViewInterval } from './view-entries.js';

const DEFAULT_SUBSCRIBERS = 1_000_000;
const INTERVALS: readonly ViewInterval[] = ['day', 'week', 'month'];
const WARM_UP = 2;
const ROUNDS = 9;
const TARGET_MS = 1_000;
const DAY_MS = 86_400_000;

function subscribersAsked(argv: readonly string[]): number {
  const at = argv.indexOf('--subscribers');
  if (at === -1) return DEFAULT_SUBSCRIBERS;
  const asked = Number(argv[at + 1]);
  if (!Number.isSafeInteger(asked) || asked < 1) throw new Error('--subscribers takes a whole number from 1');
  return asked;
}

async function timeView(view: ViewAtScale, databaseUrl: string, subscribers: number): Promise<boolean> {
  const schema = `dcbkit_bench_views_${randomBytes(4).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const sql = postgresStore({ pool, schema });
    await sql.migrate();
    const filling = performance.now();
    const facts = await view.fill(pool, sql.tables, subscribers);
    const fillSeconds = (performance.now() - filling) / 1000;
    console.log(
      `  ${view.name}: ${subscribers.toLocaleString('en')} subscribers, ${facts.toLocaleString('en')} facts over a year, ` +
        `filled in bulk SQL in ${fillSeconds.toFixed(1)} s`,
    );
    const kit = createDcbKit({
      client: {
        environment: 'sandbox',
        baseUrl: 'http://127.0.0.1:1',
        clientId: 'svc_test_bench',
        clientSecret: 'x',
      },
      webhookSecrets: 'whsec_bench_views',
      offers: benchOffers,
      store: sql.store,
      logger: {},
    });
    const year = {
      from: new Date(`${YEAR_START}T00:00:00Z`),
      to: new Date(Date.parse(`${YEAR_START}T00:00:00Z`) + 365 * DAY_MS),
    };
    console.log(`    read back: ${await view.check(kit, year, subscribers)}`);
    let held = true;
    for (const interval of INTERVALS) {
      const query = { ...year, interval };
      for (let round = 0; round < WARM_UP; round++) await view.read(kit, query);
      const timings: number[] = [];
      let rows = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        rows = await view.read(kit, query);
        timings.push(performance.now() - started);
      }
      const read = median(timings);
      const ratio = read / TARGET_MS;
      held &&= read < TARGET_MS;
      console.log(
        `    a year by ${interval.padEnd(5)} ${String(rows).padStart(5)} rows  ${read.toFixed(1).padStart(7)} ms ` +
          `(min ${Math.min(...timings).toFixed(1)}, max ${Math.max(...timings).toFixed(1)}, median of ${ROUNDS})  ` +
          `ratio to the ${TARGET_MS} ms target ${ratio.toFixed(3)}  ${read < TARGET_MS ? 'PASS' : 'MISS'}`,
      );
    }
    return held;
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
}

/** Every view of VIEWS_AT_SCALE, one after another, each in its own schema. */
export async function viewsAtScalePart(databaseUrl: string, argv: readonly string[]): Promise<void> {
  const subscribers = subscribersAsked(argv);
  const verdicts: string[] = [];
  for (const view of VIEWS_AT_SCALE) {
    verdicts.push(`${view.name} ${(await timeView(view, databaseUrl, subscribers)) ? 'PASS' : 'MISS'}`);
  }
  console.log(`  each view under ${TARGET_MS} ms for a year by day, week and month: ${verdicts.join(', ')}`);
}
