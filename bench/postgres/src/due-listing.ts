/**
 * Reconciliation's due listing at scale: what a page of `listDueEntitlements` costs with 10,000
 * entitlements and with 1,000,000, the same 1,000 of them due (a healthy receiver: few are), and
 * one `reconcile` pass over 10,000 due of 1,000,000 with a client answered in the process. Goal: a
 * page at 1,000,000 within 1.5x of a page at 10,000, the listing reading the due rows only.
 *
 * The rows are written by one INSERT … SELECT over generate_series per table, with the columns the
 * store copies from each record (core's isLiveSubscription and reconcileDeadline), then vacuumed and
 * analyzed as autovacuum would have by then. Each size has a schema of its own, dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { type DcbClient, type Entitlement, reconcile } from '@dcbkit/core';
import { postgresStore, type SqlStore } from '@dcbkit/store-postgres';
import pg from 'pg';
import { offers } from './events.js';
import { median } from './latency.js';

const SMALL = 10_000;
const LARGE = 1_000_000;
/** listDuePage's sizes, each with every 20th entitlement due (5 %: 500, 5,000 and 50,000 due). */
const WALK_SIZES = [10_000, 100_000, 1_000_000] as const;
const WALK_DUE_EVERY = 20;
/** Pages timed per size, from cursors spread over the walk. */
const SAMPLED_PAGES = 15;
/** Due in both tables: the page comparison holds the work of a page fixed and grows the rest. */
const DUE = 1_000;
/** Due of LARGE for the pass. */
const PASS_DUE = 10_000;
const PAGE_SIZE = 100;
const ROUNDS = 7;
const PAGE_TARGET = 1.5;
const DAY_MS = 86_400_000;
const NOW = new Date('2030-06-01T00:00:00.000Z');
/** reconcile's default maxAgeMs. */
const STALE_BEFORE = new Date(NOW.getTime() - 7 * DAY_MS);

/** An ISO 8601 timestamp in SQL, as core writes them into the record. */
const iso = (expression: string) =>
  `to_char((${expression}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `count` entitlements of one product each: every `dueEvery`-th due (every other one by a passed
 * period end, the others by age), 5 % revoked subscriptions, 5 % consumables, the rest live
 * subscriptions heard of within 6 days whose period ends within a month.
 */
function seedSql(table: string, count: number, dueEvery: number): string {
  const now = `timestamptz '${NOW.toISOString()}'`;
  const day = `interval '1 day'`;
  return `INSERT INTO ${table}
      (account_key, product_uid, subscription_uid, data, live_subscription, deadline_at, last_event_at)
    SELECT account_key, product_uid, subscription_uid,
      jsonb_build_object('accountKey', account_key, 'productUid', product_uid,
        'offerUid', CASE WHEN subscription_uid IS NULL THEN 'off_credits_10' ELSE 'off_premium_monthly' END,
        'type', CASE WHEN subscription_uid IS NULL THEN 'CONSUMABLE' ELSE 'SUBSCRIPTION' END,
        'status', status, 'subscriptionUid', subscription_uid, 'subscriberUid', 'sbr_' || i,
        'currentPeriodEnd', ${iso('period_end')}, 'trialEndsAt', null, 'cancelAt', null,
        'graceEndsAt', null, 'unitsBought', 0, 'unitsUsed', 0,
        'lastEventName', 'subscription.renewed', 'lastEventAt', ${iso('last_event')}),
      live, CASE WHEN live THEN period_end END, last_event
    FROM (
      SELECT i, account_key, product_uid, subscription_uid, status, period_end, last_event,
        status <> 'REVOKED' AND subscription_uid IS NOT NULL AS live
      FROM (
        SELECT i, 'user_' || i AS account_key,
          CASE WHEN i % 20 = 2 AND i % ${dueEvery} <> 0 THEN 'prod_credits' ELSE 'prod_premium' END AS product_uid,
          CASE WHEN i % 20 = 2 AND i % ${dueEvery} <> 0 THEN NULL ELSE 'sub_' || i END AS subscription_uid,
          CASE WHEN i % 20 = 1 AND i % ${dueEvery} <> 0 THEN 'REVOKED' ELSE 'ACTIVE' END AS status,
          CASE WHEN i % 20 = 2 AND i % ${dueEvery} <> 0 THEN NULL
            WHEN i % ${dueEvery} = 0 AND (i / ${dueEvery}) % 2 = 0 THEN ${now} - ${day}
            WHEN i % ${dueEvery} = 0 THEN ${now} + 10 * ${day}
            ELSE ${now} + (1 + i % 29) * ${day} + (i % 24) * interval '1 hour' END AS period_end,
          CASE WHEN i % ${dueEvery} = 0 AND (i / ${dueEvery}) % 2 = 0 THEN ${now} - 2 * ${day}
            WHEN i % ${dueEvery} = 0 THEN ${now} - 8 * ${day}
            ELSE ${now} - (i % 6) * ${day} - (1 + i % 23) * interval '1 hour' END AS last_event
        FROM generate_series(1, ${count}) AS i
      ) AS numbered
    ) AS rows`;
}

/**
 * Makes `count` more rows due by age: user_30, user_130, user_230… (i % 100 = 30: never a row
 * seeded due, revoked or a consumable, whose i % 20 is 0, 1 or 2).
 */
function moreDueSql(table: string, count: number): string {
  const eightDaysAgo = new Date(NOW.getTime() - 8 * DAY_MS).toISOString();
  return `UPDATE ${table}
    SET last_event_at = '${eightDaysAgo}', data = jsonb_set(data, '{lastEventAt}', '"${eightDaysAgo}"')
    WHERE account_key IN (SELECT 'user_' || (k * 100 + 30) FROM generate_series(0, ${count - 1}) AS k)`;
}

interface Table {
  size: number;
  schema: string;
  sqlStore: SqlStore;
}

async function seeded(pool: pg.Pool, size: number, dueEvery: number): Promise<Table & { seedMs: number }> {
  const schema = `dcbkit_bench_due_${randomBytes(4).toString('hex')}`;
  const sqlStore = postgresStore({ pool, schema });
  await sqlStore.migrate();
  const started = performance.now();
  await pool.query(seedSql(sqlStore.tables.entitlements, size, dueEvery));
  const seedMs = performance.now() - started;
  await pool.query(`VACUUM ANALYZE ${sqlStore.tables.entitlements}`);
  return { size, schema, sqlStore, seedMs };
}

/** Lists every due entitlement page by page; the milliseconds per page and the rows listed. */
async function listAll(
  table: Table,
  staleBefore: Date | null = STALE_BEFORE,
): Promise<{ msPerPage: number; rows: number }> {
  let after: Pick<Entitlement, 'accountKey' | 'productUid'> | undefined;
  let rows = 0;
  let pages = 0;
  const started = performance.now();
  for (;;) {
    const page = await table.sqlStore.store.listDueEntitlements({
      now: NOW,
      staleBefore,
      limit: PAGE_SIZE,
      ...(after ? { after } : {}),
    });
    pages++;
    rows += page.length;
    const last = page.at(-1);
    if (page.length < PAGE_SIZE || last === undefined) break;
    after = { accountKey: last.accountKey, productUid: last.productUid };
  }
  return { msPerPage: (performance.now() - started) / pages, rows };
}

/**
 * What one page of listDuePage costs, from cursors spread over a whole walk (so that every size is
 * timed in the middle of its due rows, not at their start): the median over the sampled pages,
 * each timed twice. `cold`: its first read, whose heap pages a table larger than shared_buffers
 * has mostly evicted (the 1,000,000-row table is 558 MB here; PostgreSQL's default keeps 128), so
 * it also measures the cache; `warm`: the same page read again, what the walk itself costs. The
 * plan reads the same 103 to 104 buffers a page at 10,000 and at 1,000,000 (EXPLAIN BUFFERS).
 */
async function duePageCost(table: Table): Promise<{ msPerPage: number; coldMsPerPage: number; due: number }> {
  const { store } = table.sqlStore;
  const query = { now: NOW, staleBefore: STALE_BEFORE, limit: PAGE_SIZE };
  const cursors: string[] = [];
  let due = 0;
  let cursor: string | undefined;
  do {
    const page = await store.listDuePage({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    due += page.entitlements.length;
    cursor = page.cursor;
    if (cursor !== undefined) cursors.push(cursor);
  } while (cursor !== undefined);
  const step = Math.max(1, Math.floor(cursors.length / SAMPLED_PAGES));
  const sampled = cursors.filter((_, i) => i % step === 0).slice(0, SAMPLED_PAGES);
  const cold: number[] = [];
  const warm: number[] = [];
  for (const from of sampled) {
    for (const times of [cold, warm]) {
      const started = performance.now();
      await store.listDuePage({ ...query, cursor: from });
      times.push(performance.now() - started);
    }
  }
  return { msPerPage: median(warm), coldMsPerPage: median(cold), due };
}

/** listDuePage at three sizes, the same share due: a page costs the same at each. */
async function duePagePart(pool: pg.Pool, tables: Table[]): Promise<void> {
  const walked: Table[] = [];
  for (const size of WALK_SIZES) {
    const table = await seeded(pool, size, WALK_DUE_EVERY);
    tables.push(table);
    walked.push(table);
  }
  const perPage = new Map<number, number[]>(WALK_SIZES.map((size) => [size, []]));
  const coldPerPage = new Map<number, number[]>(WALK_SIZES.map((size) => [size, []]));
  const dueAt = new Map<number, number>();
  for (let round = 0; round < ROUNDS; round++) {
    // Rotating order, so that a burst of noise on a shared machine hits every size.
    const order = walked.map((_, i) => walked[(i + round) % walked.length] as Table);
    for (const table of order) {
      const { msPerPage, coldMsPerPage, due } = await duePageCost(table);
      perPage.get(table.size)?.push(msPerPage);
      coldPerPage.get(table.size)?.push(coldMsPerPage);
      dueAt.set(table.size, due);
    }
  }
  const figures = WALK_SIZES.map(
    (size) =>
      `at ${count(size)} (${count(dueAt.get(size) ?? 0)} due) ${ms(median(perPage.get(size) ?? []))} (cold ${ms(median(coldPerPage.get(size) ?? []))})`,
  );
  console.log(`  listDuePage, a page of ${PAGE_SIZE} from the middle of the walk: ${figures.join(', ')}`);
  const ratioOf = (pages: Map<number, number[]>) => {
    const small = pages.get(WALK_SIZES[0]) ?? [];
    return median((pages.get(WALK_SIZES[2]) ?? []).map((value, i) => value / (small[i] ?? value)));
  };
  const ratio = ratioOf(perPage);
  console.log(
    `  ${ratio <= PAGE_TARGET ? 'PASS' : 'MISS'}  listDuePage page at ${count(LARGE)} / page at ${count(SMALL)}: ${ratio.toFixed(3)} (target <= ${PAGE_TARGET})`,
  );
  console.log(
    `  info  the same, each page's first read (its heap pages mostly outside shared_buffers at ${count(LARGE)}): ${ratioOf(coldPerPage).toFixed(3)}`,
  );
}

/** The service's answer to every subscription read: renewed, its next period a month away. */
function renewingClient(): Pick<DcbClient, 'payments' | 'subscriptions'> {
  const currentPeriodEnd = new Date(NOW.getTime() + 30 * DAY_MS).toISOString();
  const subscriptions = {
    retrieve: async (subscriptionUid: string) => ({
      subscriptionUid,
      status: 'ACTIVE' as const,
      productUid: 'prod_premium',
      offerUid: 'off_premium_monthly',
      subscriberUid: 'sbr_bench',
      currentPeriodEnd,
      cancelAt: null,
    }),
  };
  const payments = {
    retrieve: async () => {
      throw new Error('no payment is pending in this bench');
    },
  };
  return { subscriptions, payments } as unknown as Pick<DcbClient, 'payments' | 'subscriptions'>;
}

/** One reconcile pass; the milliseconds it took, of which in listDuePage, and what it checked. */
async function pass(
  table: Table,
): Promise<{ ms: number; listingMs: number; pages: number; checked: number }> {
  const { store } = table.sqlStore;
  let listingMs = 0;
  let pages = 0;
  const timed = Object.create(store) as typeof store;
  timed.listDuePage = async (query) => {
    const started = performance.now();
    try {
      return await store.listDuePage(query);
    } finally {
      listingMs += performance.now() - started;
      pages++;
    }
  };
  const started = performance.now();
  const report = await reconcile({
    client: renewingClient(),
    store: timed,
    offers,
    now: () => NOW,
    pendingPayments: false,
    pageSize: PAGE_SIZE,
  });
  if (report.failures.length > 0) throw new Error(`the pass failed: ${report.failures[0]?.message}`);
  return { ms: performance.now() - started, listingMs, pages, checked: report.checked };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const count = (value: number) => value.toLocaleString('en');

export async function dueListingPart(databaseUrl: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const tables: Table[] = [];
  try {
    const small = await seeded(pool, SMALL, SMALL / DUE);
    tables.push(small);
    const large = await seeded(pool, LARGE, LARGE / DUE);
    tables.push(large);
    console.log(
      `  seeded ${count(LARGE)} entitlements in ${(large.seedMs / 1000).toFixed(1)} s (one INSERT … SELECT generate_series)`,
    );
    for (const table of tables) {
      const { rows } = await listAll(table);
      if (rows !== DUE) throw new Error(`${count(rows)} due at ${count(table.size)}, ${count(DUE)} seeded`);
    }
    const perPage = { small: [] as number[], large: [] as number[] };
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating order, so that a burst of noise on a shared machine hits both sizes.
      const order = round % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const);
      const result: Record<string, number> = {};
      for (const name of order) {
        result[name] = (await listAll(name === 'small' ? small : large)).msPerPage;
        perPage[name].push(result[name] as number);
      }
      ratios.push((result.large as number) / (result.small as number));
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    const ratio = median(ratios);
    console.log(
      `  listDueEntitlements (by key), a page of ${PAGE_SIZE} (${count(DUE)} due, staleBefore 7 days): at ${count(SMALL)} ${ms(median(perPage.small))}, at ${count(LARGE)} ${ms(median(perPage.large))} (median of ${ROUNDS} rounds)`,
    );
    console.log(
      `  ${ratio <= PAGE_TARGET ? 'PASS' : 'MISS'}  page at ${count(LARGE)} / page at ${count(SMALL)}: ${ratio.toFixed(3)} (range ${sorted[0]?.toFixed(3)}–${sorted.at(-1)?.toFixed(3)}; target <= ${PAGE_TARGET})`,
    );

    await pool.query(moreDueSql(large.sqlStore.tables.entitlements, PASS_DUE - DUE));
    const due = (await listAll(large)).rows;
    const run = await pass(large);
    const again = await pass(large);
    console.log(
      `  reconcile pass over ${count(due)} due of ${count(LARGE)} (client answered in the process, 4 reads at once): ${(run.ms / 1000).toFixed(2)} s, ${ms(run.ms / run.checked)} per check; listing ${ms(run.listingMs)} over ${run.pages} pages (${ms(run.listingMs / run.pages)} a page); the next pass checks ${again.checked}`,
    );
    if (run.checked !== due) throw new Error(`the pass checked ${run.checked} of ${due} due`);
    await duePagePart(pool, tables);
  } finally {
    for (const table of tables) await pool.query(`DROP SCHEMA IF EXISTS "${table.schema}" CASCADE`);
    await pool.end();
  }
}
