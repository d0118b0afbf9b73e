/**
 * bench/postgres: events per second and apply latency of the webhook handler on
 * @dcbkit/store-postgres, beside a floor measured in the same run: a bare `pg` transaction doing
 * the same statements with no dcbkit code around it (floor.ts). Goal: >= 0.9 of the floor's
 * events per second, at 1 and at 4 concurrent connections. Also PGlite's events per second
 * (in memory and over a data folder). Then reconciliation's due listing at 10,000 and 1,000,000
 * entitlements (due-listing.ts): a page at 1,000,000 within 1.5x of one at 10,000. Then a year of
 * daily business metrics over 1,000,000 and 10,000,000 facts (metrics-read.ts): under 1 s. Reads
 * DATABASE_URL; works in schemas of its own, dropped at the end. `--only metrics` runs the metrics
 * part and the two after it alone. Then cohorts, revenue movements and the trial funnel over
 * 1,000,000 subscribers' lifecycles (lifecycle-read.ts): each under 1 s; `--lifecycles` runs that
 * alone. Last, every business view at 1,000,000 subscribers, filled in bulk SQL (views-at-scale.ts:
 * a year by day, week and month, each under 1 s); `--views` runs it alone (`--subscribers N` for fewer).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntitlementStore, EventLedger } from '@dcbkit/core/store';
import { createWebhookHandler } from '@dcbkit/core/web';
import { pgliteStore, postgresStore } from '@dcbkit/store-postgres';
import { createFloorVerifier } from '@dcbkit-bench/shared';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { dueListingPart } from './due-listing.js';
import { type BenchEvent, benchEvents, offers, SECRET } from './events.js';
import { compareSides } from './events-per-second.js';
import { floorReceiver } from './floor.js';
import { percentile, runLanes } from './latency.js';
import { lifecycleReadPart } from './lifecycle-read.js';
import { metricsReadPart } from './metrics-read.js';
import { perEventPart } from './per-event.js';
import { viewsAtScalePart } from './views-at-scale.js';

const GOAL = 0.9;
// Many short rounds, alternating sides: on a shared machine a burst of noise spoils a round, not the median.
const ROUNDS = 48;
const EVENTS_PER_ROUND = 150;
const PGLITE_EVENTS = 1_000;
const CONCURRENCIES = [1, 4] as const;

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) {
  // Skipped, not failed, so that `pnpm bench` still runs the other benches on a machine without PostgreSQL.
  console.log(
    'bench/postgres: SKIPPED, DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test).',
  );
  process.exit(0);
}

const quiet = { error() {}, warn() {}, info() {}, debug() {} };
const signedAt = new Date();
let nextEvent = 0;
const freshEvents = (count: number) => {
  const events = benchEvents(nextEvent, count, signedAt);
  nextEvent += count;
  return events;
};

function dcbkitReceiver(store: EntitlementStore, ledger: EventLedger, outcome = 'applied') {
  const handler = createWebhookHandler({
    secrets: SECRET,
    store,
    ledger,
    offers,
    logger: quiet,
    now: () => signedAt,
  });
  return async (event: BenchEvent) => {
    const { status, body } = await handler(event);
    if (status !== 200 || !body?.includes(`"${outcome}"`))
      throw new Error(`handler answered ${status} ${body}`);
  };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

async function postgresPart(): Promise<void> {
  const schema = `dcbkit_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
  try {
    const setup = postgresStore({ pool: admin, schema });
    await setup.migrate();
    console.log('\nPer event, from pg_stat_database (payment.succeeded, 30 % subscriptions, 70 % credits)');
    await perEventPart(DATABASE_URL as string, schema, freshEvents, dcbkitReceiver);
    for (const concurrency of CONCURRENCIES) {
      // Each side gets its own pool of `concurrency` connections: what "N concurrent connections" means.
      const pools = [false, false, false, true].map(
        // pg's pipeline mode is a client option its Pool passes on; @types/pg does not know it yet.
        (pipeline) =>
          new pg.Pool({ connectionString: DATABASE_URL, max: concurrency, pipeline } as pg.PoolConfig),
      );
      const [dcbkitPool, floorPool, verifiedPool, pipelinedPool] = pools as [
        pg.Pool,
        pg.Pool,
        pg.Pool,
        pg.Pool,
      ];
      const { store, ledger } = postgresStore({ pool: dcbkitPool, schema });
      const nowSeconds = Math.floor(signedAt.getTime() / 1000);
      const sides = [
        { name: 'dcbkit', receive: dcbkitReceiver(store, ledger) },
        { name: 'floor', receive: floorReceiver(floorPool, schema) },
        {
          name: 'floor + verify',
          receive: floorReceiver(verifiedPool, schema, {
            verify: createFloorVerifier(SECRET),
            nowSeconds,
          }),
        },
        { name: 'floor, pipelined', receive: floorReceiver(pipelinedPool, schema, undefined, true) },
      ];
      await compareSides(
        sides,
        [
          { name: 'floor', goal: GOAL, label: 'events/s, dcbkit / floor' },
          {
            name: 'floor + verify',
            goal: undefined,
            label: 'events/s, dcbkit / floor that also checks the signature and parses the body',
          },
          {
            name: 'floor, pipelined',
            goal: undefined,
            label: 'events/s, dcbkit / floor sending BEGIN and COMMIT with its first and last statements',
          },
        ],
        {
          concurrency,
          rounds: ROUNDS,
          perRound: EVENTS_PER_ROUND,
          freshEvents,
          // Statistics as autovacuum keeps them in production. Without them, a connection that
          // prepared its statements while the tables were nearly empty keeps a sequential-scan
          // plan until autovacuum's next ANALYZE (a minute or more away), and whichever side
          // prepared first loses.
          prepare: async () => {
            await admin.query(`ANALYZE "${schema}".dcbkit_entitlements, "${schema}".dcbkit_entitlement_payments,
              "${schema}".dcbkit_entitlement_units, "${schema}".dcbkit_events, "${schema}".dcbkit_history,
              "${schema}".dcbkit_pending_payments, "${schema}".dcbkit_metric_keys, "${schema}".dcbkit_metric_days`);
          },
        },
      );
      await Promise.all(pools.map((pool) => pool.end()));
    }
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

async function pglitePart(label: string, dataDir: string | undefined): Promise<void> {
  const db = dataDir === undefined ? await PGlite.create() : await PGlite.create(dataDir);
  try {
    const { store, ledger } = await pgliteStore({ db });
    const receive = dcbkitReceiver(store, ledger);
    await runLanes(freshEvents(200), 1, receive);
    const run = await runLanes(freshEvents(PGLITE_EVENTS), 1, receive);
    console.log(
      `  ${label.padEnd(22)} ${run.perSecond.toFixed(0).padStart(6)} events/s   apply latency p50 ${ms(percentile(run.latencies, 50))}, p99 ${ms(percentile(run.latencies, 99))}`,
    );
  } finally {
    await db.close();
  }
}

console.log(`bench/postgres  node ${process.version}`);
async function serverSettings(): Promise<string> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string; fsync: string; synchronous_commit: string }>(
      "SELECT version(), current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS synchronous_commit",
    );
    const row = rows[0];
    return `${row?.version.split(' on ')[0]}; fsync ${row?.fsync}, synchronous_commit ${row?.synchronous_commit}`;
  } finally {
    await client.end();
  }
}

console.log(`  ${await serverSettings()}`);
const viewsAtScale = async () => {
  console.log(
    '\nThe business views at scale: a year of facts in bulk SQL, read through the kit on postgresStore',
  );
  await viewsAtScalePart(DATABASE_URL as string, process.argv);
};
if (process.argv.includes('--lifecycles')) {
  console.log('\nThe business view: cohorts, revenue movements and the trial funnel on postgresStore');
  await lifecycleReadPart(DATABASE_URL);
  process.exit(0);
}
if (process.argv.includes('--views')) {
  await viewsAtScale();
  process.exit(0);
}
if (process.argv.includes('--due')) {
  console.log('\nReconciliation: the due listing (listDueEntitlements on postgresStore)');
  await dueListingPart(DATABASE_URL);
  process.exit(0);
}
if (!process.argv.includes('--only')) {
  console.log(
    '  dcbkit: createWebhookHandler (verify, key, then one transaction: BEGIN with the claim, read, write, line, then the history, pending payment and facts in one statement with COMMIT) on postgresStore',
  );
  await postgresPart();
  if (process.argv.includes('--events')) process.exit(0);
  console.log(`\nPGlite (one connection, ${PGLITE_EVENTS} events, dcbkit handler)`);
  await pglitePart('in memory', undefined);
  const dataDir = await mkdtemp(join(tmpdir(), 'dcbkit-bench-pglite-'));
  try {
    await pglitePart('over a data folder', dataDir);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  console.log('\nReconciliation: the due listing (listDueEntitlements on postgresStore)');
  await dueListingPart(DATABASE_URL);
}
console.log('\nThe business view: a year of daily kit.metrics on postgresStore');
await metricsReadPart(DATABASE_URL);
console.log('\nThe business view: cohorts, revenue movements and the trial funnel on postgresStore');
await lifecycleReadPart(DATABASE_URL);
await viewsAtScale();
