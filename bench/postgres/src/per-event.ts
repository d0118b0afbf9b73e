import type { EntitlementStore, EventLedger } from '@dcbkit/core/store';
import { postgresStore } from '@dcbkit/store-postgres';
import pg from 'pg';
import type { BenchEvent } from './events.js';

const EVENTS = 300;

interface Counts {
  commits: number;
  rollbacks: number;
  rows: number;
}

/** The database's own counts, read after every other backend flushed its statistics (they flush when they exit). */
async function databaseCounts(databaseUrl: string): Promise<Counts> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ commits: string; rollbacks: string; rows: string }>(
      `SELECT xact_commit AS commits, xact_rollback AS rollbacks,
        tup_inserted + tup_updated + tup_deleted AS rows
      FROM pg_stat_database WHERE datname = current_database()`,
    );
    const row = rows[0];
    return { commits: Number(row?.commits), rollbacks: Number(row?.rollbacks), rows: Number(row?.rows) };
  } finally {
    await client.end();
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 1_200));

/**
 * What `deliver` costs the database per event, from pg_stat_database: the pool is closed before
 * the counts are read, so that its backends flushed theirs, and the reads' own transaction is
 * measured with no events and taken off.
 */
async function perEvent(
  databaseUrl: string,
  events: readonly BenchEvent[],
  deliver: (pool: pg.Pool) => (event: BenchEvent) => Promise<void>,
): Promise<Counts> {
  await settle();
  const empty0 = await databaseCounts(databaseUrl);
  const empty1 = await databaseCounts(databaseUrl);
  const overhead = empty1.commits - empty0.commits;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const receive = deliver(pool);
  const before = await databaseCounts(databaseUrl);
  for (const event of events) await receive(event);
  await pool.end();
  await settle();
  const after = await databaseCounts(databaseUrl);
  return {
    commits: (after.commits - before.commits - overhead) / events.length,
    rollbacks: (after.rollbacks - before.rollbacks) / events.length,
    rows: (after.rows - before.rows) / events.length,
  };
}

/**
 * Transactions and rows written per new event and per duplicate delivery, through the handler on
 * postgresStore (one transaction per event) and on its two-phase ledger path (the store without
 * applyOnce), each on events of its own.
 */
export async function perEventPart(
  databaseUrl: string,
  schema: string,
  freshEvents: (count: number) => BenchEvent[],
  receiver: (
    store: EntitlementStore,
    ledger: EventLedger,
    outcome: string,
  ) => (event: BenchEvent) => Promise<void>,
): Promise<void> {
  const paths = {
    'one transaction': (pool: pg.Pool) => postgresStore({ pool, schema }),
    'two-phase ledger': (pool: pg.Pool) => {
      const { store, ledger } = postgresStore({ pool, schema });
      const { applyOnce: _applyOnce, reopen: _reopen, ...twoPhase } = store;
      return { store: twoPhase, ledger };
    },
  };
  for (const [path, open] of Object.entries(paths)) {
    const events = freshEvents(EVENTS);
    const fresh = await perEvent(databaseUrl, events, (pool) => {
      const { store, ledger } = open(pool);
      return receiver(store, ledger, 'applied');
    });
    const copies = await perEvent(databaseUrl, events, (pool) => {
      const { store, ledger } = open(pool);
      return receiver(store, ledger, 'duplicate');
    });
    const figure = (counts: Counts) =>
      `${counts.commits.toFixed(2)} committed transactions, ${counts.rows.toFixed(2)} rows written` +
      (counts.rollbacks > 0 ? `, ${counts.rollbacks.toFixed(2)} rolled back` : '');
    console.log(`  ${path.padEnd(17)} new event: ${figure(fresh)}`);
    console.log(`  ${''.padEnd(17)} duplicate: ${figure(copies)}`);
  }
}
