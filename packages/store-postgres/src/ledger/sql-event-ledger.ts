import { randomUUID } from 'node:crypto';
import type { Claim, ClaimToken, EventLedger } from '@dcbkit/core/store';
import type { SqlExecutor } from '../executor/sql-executor.js';
import type { TableNames } from '../schema/table-names.js';
import { keyHash } from './key-hash.js';
import type { ResolvedLedgerOptions } from './ledger-options.js';

/** A claim whose row changed between the insert and the look (released, taken over) is tried again this often. */
const MAX_CLAIM_ATTEMPTS = 3;
/** prune deletes in batches, so that it never holds many row locks at once; and stops after this many. */
const PRUNE_BATCH = 5_000;
const MAX_PRUNE_BATCHES = 200;

const DUPLICATE: Claim = Object.freeze({ status: 'duplicate' });
const IN_PROGRESS: Claim = Object.freeze({ status: 'in_progress' });

/** An EventLedger that also forgets what is older than its retention. */
export interface SqlEventLedger extends EventLedger {
  /**
   * Deletes completed events older than the retention, and claims abandoned for as long (a
   * crashed instance's, never retried). Returns how many rows went. Run it daily (a cron, a timer):
   * the table otherwise keeps every event ever received, which is safe but grows.
   */
  prune(): Promise<number>;
}

/** The ledger's SQL on its table `t` (the events table). */
function ledgerStatements(t: string, durableLedger: boolean) {
  // The ledger's own writes commit without waiting for the disk (synchronous_commit off, for that
  // statement's transaction only; set_config(..., true) is SET LOCAL). Safe because the ledger
  // only ever saves work: a claim or completion lost in a database crash lets a redelivery apply
  // the event again, which core's rules make a no-op, and WAL order keeps the entitlement commit
  // (synchronous) ahead of the completion that follows it. The entitlement write, what the 2xx
  // promises, always waits for the disk. `durableLedger: true` makes these wait too.
  const asyncCommit = durableLedger
    ? '(SELECT 1) AS sync_commit'
    : "(SELECT set_config('synchronous_commit', 'off', true)) AS async_commit";
  const lease = `now() + $3::integer * interval '1 millisecond'`;
  // DO NOTHING, not DO UPDATE: a conflict then neither locks nor writes the row, so a duplicate
  // costs two reads and no commit.
  const claimSql = `INSERT INTO ${t} (key_hash, event_key, state, lease_until, claim_token)
    SELECT decode($1, 'hex'), $2, 'in_progress', ${lease}, $4 FROM ${asyncCommit}
    ON CONFLICT (key_hash) DO NOTHING RETURNING 1 AS claimed`;
  const stateSql = `SELECT state, lease_until <= now() AS lapsed FROM ${t} WHERE key_hash = decode($1, 'hex')`;
  // Taking over a lapsed claim: the WHERE is evaluated again on the latest row, so of two
  // deliveries taking it over at once only one gets it.
  const takeOverSql = `UPDATE ${t} SET lease_until = now() + $2::integer * interval '1 millisecond', claimed_at = now(),
      claim_token = $3
    FROM ${asyncCommit}
    WHERE key_hash = decode($1, 'hex') AND state = 'in_progress' AND lease_until <= now()
    RETURNING 1 AS claimed`;
  // An upsert: a completion whose claim was pruned, or lapsed with no one holding it now, is still
  // recorded; a claim another delivery took over is left to that holder.
  const completeSql = `INSERT INTO ${t} AS e (key_hash, event_key, state, lease_until, completed_at)
    SELECT decode($1, 'hex'), $2, 'completed', NULL, now() FROM ${asyncCommit}
    ON CONFLICT (key_hash) DO UPDATE SET state = 'completed', lease_until = NULL, completed_at = now(),
      claim_token = NULL
      WHERE e.state = 'in_progress' AND (e.claim_token IS NOT DISTINCT FROM $3 OR e.lease_until <= now())`;
  // Only this holder's claim: a late release after a takeover frees nothing.
  const releaseSql = `DELETE FROM ${t} USING ${asyncCommit}
    WHERE key_hash = decode($1, 'hex') AND state = 'in_progress' AND claim_token IS NOT DISTINCT FROM $2`;
  // Two statements, each served by its partial index; batched so that none holds many row locks.
  const retention = `now() - $1::bigint * interval '1 millisecond'`;
  const pruneSql = [
    `DELETE FROM ${t} WHERE key_hash IN (SELECT key_hash FROM ${t}
      WHERE state = 'completed' AND completed_at < ${retention} LIMIT ${PRUNE_BATCH}) RETURNING 1`,
    `DELETE FROM ${t} WHERE key_hash IN (SELECT key_hash FROM ${t}
      WHERE state = 'in_progress' AND lease_until < ${retention} LIMIT ${PRUNE_BATCH}) RETURNING 1`,
  ];

  return { claimSql, stateSql, takeOverSql, completeSql, releaseSql, pruneSql };
}

type LedgerStatements = ReturnType<typeof ledgerStatements>;

/** Claims `key`: new (with a token), or seen (completed, or held by a lease still running). */
async function claimKey(
  executor: SqlExecutor,
  { claimSql, stateSql, takeOverSql }: LedgerStatements,
  key: string,
  leaseMs: number,
): Promise<Claim> {
  const hash = keyHash(key);
  const token = randomUUID();
  for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
    const inserted = await executor.query(claimSql, [hash, key, leaseMs, token]);
    if (inserted.rows.length === 1) return { status: 'new', token };
    const { rows } = await executor.query<{ state: string; lapsed: boolean }>(stateSql, [hash]);
    const row = rows[0];
    if (row?.state === 'completed') return DUPLICATE;
    if (row?.state === 'in_progress' && !row.lapsed) return IN_PROGRESS;
    if (row?.state === 'in_progress') {
      const takenOver = await executor.query(takeOverSql, [hash, leaseMs, token]);
      if (takenOver.rows.length === 1) return { status: 'new', token };
    }
    // Released (or taken over, or completed) meanwhile: look again.
  }
  // Claimed and released over and over meanwhile: someone is working on it; the service retries.
  return IN_PROGRESS;
}

/** Deletes what is past `retentionMs`, statement by statement, a batch at a time; answers how many rows went. */
async function pruneOld(
  executor: SqlExecutor,
  pruneSql: readonly string[],
  retentionMs: number,
): Promise<number> {
  let deleted = 0;
  for (const sql of pruneSql) {
    for (let batch = 0; batch < MAX_PRUNE_BATCHES; batch++) {
      const { rows } = await executor.query(sql, [retentionMs]);
      deleted += rows.length;
      if (rows.length < PRUNE_BATCH) break;
    }
  }
  return deleted;
}

/**
 * An EventLedger on one PostgreSQL table. Every write is one statement, atomic on its own: the
 * primary key decides which of several concurrent claims (from any instance) is new, a lapsed
 * claim is taken over by one conditional UPDATE, and the database's clock (not the instances',
 * which may disagree) dates the leases.
 */
export function sqlEventLedger(
  executor: SqlExecutor,
  names: TableNames,
  options: ResolvedLedgerOptions,
): SqlEventLedger {
  const sql = ledgerStatements(names.events, options.durableLedger);
  return {
    claim: (key: string) => claimKey(executor, sql, key, options.leaseMs),
    async complete(key: string, token: ClaimToken): Promise<void> {
      await executor.query(sql.completeSql, [keyHash(key), key, String(token)]);
    },
    async release(key: string, token: ClaimToken): Promise<void> {
      await executor.query(sql.releaseSql, [keyHash(key), String(token)]);
    },
    prune: () => pruneOld(executor, sql.pruneSql, options.retentionMs),
  };
}
