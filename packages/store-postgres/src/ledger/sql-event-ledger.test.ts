import type { Claim, ClaimToken } from '@dcbkit/core/store';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlStore, type SqlStore } from '../connect/create-sql-store.js';
import { StorePostgresError } from '../errors/store-postgres-error.js';
import { fromPg } from '../executor/from-pg.js';
import { fromPglite } from '../executor/from-pglite.js';
import type { SqlExecutor } from '../executor/sql-executor.js';
import { DATABASE_URL, type TestDatabase, testDatabase, uniqueSchema } from '../test-support/database.js';
import { openPglite } from '../test-support/pglite.js';

const LEASE_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The token of a claim the test expects to be new. */
function tokenOf(claim: Claim): ClaimToken {
  if (claim.status !== 'new') throw new Error(`expected a new claim, got ${claim.status}`);
  return claim.token;
}

/** What the ledger must do beyond core's suite (leases, take-over, pruning), on either driver. */
function ledgerBehaviour(open: () => Promise<{ executor: SqlExecutor; schema: string }>) {
  let sqlStore: SqlStore;
  beforeAll(async () => {
    const { executor, schema } = await open();
    sqlStore = createSqlStore(executor, { schema, leaseMs: LEASE_MS });
    await sqlStore.migrate();
  }, 60_000);

  it("lets a crashed instance's claim lapse after the lease, so that a retry is processed", async () => {
    const { ledger } = sqlStore;
    expect((await ledger.claim('evt_crashed')).status).toBe('new');
    expect((await ledger.claim('evt_crashed')).status).toBe('in_progress');
    await sleep(LEASE_MS + 100);
    expect((await ledger.claim('evt_crashed')).status).toBe('new');
    // The take-over holds a new lease.
    expect((await ledger.claim('evt_crashed')).status).toBe('in_progress');
  });

  it('of concurrent take-overs of a lapsed claim, exactly one is new', async () => {
    const { ledger } = sqlStore;
    await ledger.claim('evt_lapsed');
    await sleep(LEASE_MS + 100);
    const results = await Promise.all(Array.from({ length: 10 }, () => ledger.claim('evt_lapsed')));
    expect(results.filter((result) => result.status === 'new')).toHaveLength(1);
    expect(results.filter((result) => result.status === 'in_progress')).toHaveLength(9);
  });

  it('never lets a completed event lapse', async () => {
    const { ledger } = sqlStore;
    await ledger.complete('evt_done', tokenOf(await ledger.claim('evt_done')));
    await sleep(LEASE_MS + 100);
    expect((await ledger.claim('evt_done')).status).toBe('duplicate');
  });

  it('records a completion whose claim is gone (taken over and released meanwhile)', async () => {
    const { ledger } = sqlStore;
    await ledger.complete('evt_unclaimed', 'a-token-never-given');
    expect((await ledger.claim('evt_unclaimed')).status).toBe('duplicate');
  });

  it('prunes completed events past the retention and abandoned claims, and keeps the rest', async () => {
    const { ledger, executor, tables } = sqlStore;
    const tokens = new Map<string, ClaimToken>();
    for (const key of ['old_done', 'old_abandoned', 'recent_done', 'recent_claim']) {
      tokens.set(key, tokenOf(await ledger.claim(key)));
    }
    await ledger.complete('old_done', tokens.get('old_done') ?? '');
    await ledger.complete('recent_done', tokens.get('recent_done') ?? '');
    // Four days ago: past the default 72-hour retention.
    await executor.query(
      `UPDATE ${tables.events} SET completed_at = now() - interval '4 days' WHERE event_key = 'old_done'`,
    );
    await executor.query(
      `UPDATE ${tables.events} SET lease_until = now() - interval '4 days' WHERE event_key = 'old_abandoned'`,
    );
    expect(await ledger.prune()).toBe(2);
    expect((await ledger.claim('old_done')).status).toBe('new');
    expect((await ledger.claim('old_abandoned')).status).toBe('new');
    expect((await ledger.claim('recent_done')).status).toBe('duplicate');
    expect((await ledger.claim('recent_claim')).status).toBe('in_progress');
  });
}

describe.skipIf(!DATABASE_URL)('the ledger on PostgreSQL', () => {
  let database: TestDatabase;
  afterAll(() => database?.drop());
  ledgerBehaviour(async () => {
    database = testDatabase('ledger');
    return { executor: fromPg(database.pool), schema: database.schema };
  });

  it.each([false, true])(
    'with durableLedger %s, leaves the connection committing synchronously, as it found it',
    async (durableLedger) => {
      // One connection, so that the check runs on the session the ledger used.
      const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
      try {
        const { ledger, migrate } = createSqlStore(fromPg(pool), { schema: database.schema, durableLedger });
        await migrate();
        const key = `evt_sync_${durableLedger}`;
        const token = tokenOf(await ledger.claim(key));
        await ledger.complete(key, token);
        await ledger.release(key, token);
        expect((await ledger.claim(key)).status).toBe('duplicate');
        const { rows } = await pool.query('SHOW synchronous_commit');
        expect(rows).toEqual([{ synchronous_commit: 'on' }]);
      } finally {
        await pool.end();
      }
    },
  );
});

describe('the ledger on PGlite', () => {
  let db: PGlite;
  afterAll(() => db?.close());
  ledgerBehaviour(async () => {
    db = await openPglite();
    return { executor: fromPglite(db), schema: uniqueSchema('ledger') };
  });
});

describe('ledger options', () => {
  const executor = { query: async () => ({ rows: [] }), transaction: async () => undefined as never };
  it.each([{ leaseMs: 0 }, { leaseMs: 1.5 }, { leaseMs: 2 ** 31 }, { retentionMs: 48 * 3_600_000 }])(
    'refuses %j',
    (options) => {
      expect(() => createSqlStore(executor, options)).toThrow(StorePostgresError);
    },
  );
});
