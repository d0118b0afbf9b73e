import { randomUUID } from 'node:crypto';
import type {
  ApplyOnceOptions,
  ClaimToken,
  EventLedger,
  OnceResult,
  OnceStore,
  OnceWork,
} from '@dcbkit/core/store';
import { lifecyclesOfFacts } from '@dcbkit/core/store';
import type { SqlExecutor, SqlQueryable, SqlTransaction } from '../executor/sql-executor.js';
import { keyHash } from '../ledger/key-hash.js';
import type { TableNames } from '../schema/table-names.js';
import { deferredStatements, noDeferredWrites } from './deferred-writes.js';
import { HISTORY_COLUMNS } from './history-methods.js';
import { lifecycleArrays } from './lifecycle-methods.js';
import { countedOf } from './metrics-methods.js';
import { type SqlEntitlementStore, storeInTransaction } from './sql-entitlement-store.js';
import type { StoreStatements } from './store-statements.js';

/** A claim statement that found neither its row nor a conflict (a copy committed or released meanwhile) runs again this often. */
const MAX_CLAIM_ATTEMPTS = 3;
/** The SQL timeouts are this share of the handler's deadline, so that the database gives up first. */
const SQL_SHARE_OF_DEADLINE = 0.9;
/** PostgreSQL's lock_not_available: a copy's claim waited on the first copy's transaction past lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

interface ClaimRow {
  claimed: boolean;
  state: 'in_progress' | 'completed' | null;
  lapsed: boolean | null;
}

/** The line locks' namespace: the tables' own, so that two dcbkit schemas in one database never share a lock. */
function lineLockPrefix(t: TableNames): string {
  return `'${t.events.replaceAll("'", "''")}:line:'`;
}

/** Thrown inside the transaction to roll it back with this answer. */
class RollBack<T> {
  constructor(readonly result: OnceResult<T>) {}
}

/** The once path's own SQL: the claim, the take-over of a lapsed two-phase claim, the reopen. */
function onceStatements(t: TableNames) {
  const hashParam = `decode($1, 'hex')`;
  const units = (e: string) => `CASE WHEN ${e}.data->>'type' = 'CONSUMABLE' THEN GREATEST(0,
      COALESCE((${e}.data->>'unitsBought')::int, 0) - COALESCE((${e}.data->>'unitsUsed')::int, 0)) END`;
  // One statement: sets the transaction's timeouts, takes the line's lock (held to the commit:
  // the events of one line apply one after the other, and each later statement's snapshot sees
  // what the line's previous event committed), claims the key, and when it was processed before,
  // writes this copy's history entry from the entitlement the key names (core's historyEntryOf
  // for a duplicate: the status and units held, before and after alike).
  // $1 hash, $2 key, $3 timeout ms, $4 token, $5 record a copy's history, $6 event name, $7
  // occurred at, $8 payment uid, $9 subscription uid, $10 the line (or null). Recorded at the
  // transaction's time.
  const claimSql = `WITH settings AS (
      SELECT set_config('lock_timeout', $3, true) AS lock_timeout, set_config('statement_timeout', $3, true) AS statement_timeout,
        CASE WHEN $10::text IS NOT NULL THEN pg_advisory_xact_lock(hashtextextended(${lineLockPrefix(t)} || $10::text, 0)) END AS line_lock
    ), claim AS (
      INSERT INTO ${t.events} (key_hash, event_key, state, lease_until, claim_token, completed_at)
      SELECT ${hashParam}, $2, 'completed', NULL, $4, now() FROM settings
      ON CONFLICT (key_hash) DO NOTHING RETURNING 1
    ), seen AS (
      SELECT state, lease_until <= now() AS lapsed, account_key, product_uid FROM ${t.events}
      WHERE key_hash = ${hashParam}
    ), copy AS (
      INSERT INTO ${t.history} (${HISTORY_COLUMNS})
      SELECT now(), s.account_key, s.product_uid, 'webhook', 'duplicate', $6, $2, $7, $8,
        COALESCE($9, e.subscription_uid), e.data->>'status', e.data->>'status', ${units('e')}, ${units('e')}, NULL
      FROM seen s LEFT JOIN ${t.entitlements} e ON e.account_key = s.account_key AND e.product_uid = s.product_uid
      WHERE $5::boolean AND s.state = 'completed' AND s.account_key IS NOT NULL
    )
    SELECT EXISTS (SELECT 1 FROM claim) AS claimed, s.state, s.lapsed
    FROM (VALUES (1)) AS one (x) LEFT JOIN seen s ON true`;
  // A two-phase claim (the ledger's own path) whose lease lapsed: taken over, as the ledger does.
  const takeOverSql = `UPDATE ${t.events} SET state = 'completed', lease_until = NULL, completed_at = now(),
      claim_token = $2
    WHERE key_hash = ${hashParam} AND state = 'in_progress' AND lease_until <= now() RETURNING 1`;
  const reopenSql = `DELETE FROM ${t.events} WHERE key_hash = ${hashParam} AND claim_token IS NOT DISTINCT FROM $2`;
  return { claimSql, takeOverSql, reopenSql };
}

type OnceStatements = ReturnType<typeof onceStatements>;

/**
 * The claim's parameters after the hash and the key ($3 to $10 of the claim): the SQL timeouts,
 * the token, and what a copy's history entry needs.
 */
function claimParams(options: ApplyOnceOptions, token: string): unknown[] {
  const { duplicate } = options;
  return [
    String(Math.max(1, Math.floor(options.timeoutMs * SQL_SHARE_OF_DEADLINE))),
    token,
    duplicate !== undefined,
    duplicate?.eventName ?? null,
    duplicate?.occurredAt ?? null,
    duplicate?.paymentUid ?? null,
    duplicate?.subscriptionUid ?? null,
    options.line ?? null,
  ];
}

/** Claims the key as the transaction's first statement: new, processed before, or held by a copy. */
async function claimKey(
  tx: SqlQueryable,
  { claimSql, takeOverSql }: OnceStatements,
  hash: string,
  key: string,
  token: string,
  params: unknown[],
): Promise<'new' | 'duplicate' | 'in_progress'> {
  for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
    const { rows } = await tx.query<ClaimRow>(claimSql, [hash, key, ...params]);
    const row = rows[0];
    if (row?.claimed) return 'new';
    if (row?.state === 'completed') return 'duplicate';
    if (row?.state === 'in_progress') {
      if (!row.lapsed) return 'in_progress';
      if ((await tx.query(takeOverSql, [hash, token])).rows.length === 1) return 'new';
    }
    // Neither the row nor a conflict: a copy's transaction committed or rolled back while this
    // claim waited on it, after this statement's snapshot. The next statement sees which.
  }
  return 'in_progress';
}

/** Sends the last statement, with COMMIT where the executor can (fromPg: one round trip for both); answers the facts' new keys. */
async function sendLast(tx: SqlTransaction, last: { sql: string; params: unknown[] } | undefined) {
  if (last === undefined) return [];
  const { rows } = tx.commitWith
    ? await tx.commitWith<{ key: string }>(last.sql, last.params)
    : await tx.query<{ key: string }>(last.sql, last.params);
  return rows.map((row) => row.key);
}

/**
 * core's OnceStore on the ledger's table: the claim is the transaction's first statement, so that
 * a second copy's claim of the key waits on this transaction (the primary key's rule) and then
 * finds it committed or rolled back. The key is inserted as completed: it is only ever seen
 * committed together with what the event wrote.
 */
export function onceMethods(
  executor: SqlExecutor,
  t: TableNames,
  sql: StoreStatements,
  ledger: EventLedger,
): OnceStore<SqlEntitlementStore> {
  const statements = onceStatements(t);
  const lastStatement = deferredStatements(t);

  /** The event in its transaction: claimed, worked, its last statement sent; or rolled back. */
  async function applyIn<T>(
    tx: SqlTransaction,
    key: string,
    work: (tx: SqlEntitlementStore) => Promise<OnceWork<T>>,
    options: ApplyOnceOptions,
  ): Promise<OnceResult<T>> {
    // Computed here, while BEGIN is on its way (from-pg.ts), and the store while the claim is.
    const hash = keyHash(key);
    const token = randomUUID();
    const claiming = claimKey(tx, statements, hash, key, token, claimParams(options, token));
    const deferred = noDeferredWrites();
    const store = storeInTransaction(tx, t, sql, deferred);
    const claimed = await claiming;
    // A copy's history entry was written by the claim: committed with it.
    if (claimed === 'duplicate') return { status: 'duplicate' };
    if (claimed === 'in_progress') throw new RollBack<T>({ status: 'in_progress' });
    const done = await work(store);
    if (!done.keep) throw new RollBack<T>({ status: 'rolled_back', value: done.value });
    const target = done.target && { hash, ...done.target };
    const facts = done.facts ?? [];
    // A subscription's facts' lifecycle records, merged under their subscribers' locks: a
    // statement of their own, whose locks the last statement's snapshot comes after (that
    // one derives the subscribers' columns, deferred-writes.ts).
    const lifecycles = lifecyclesOfFacts(facts);
    if (lifecycles.length > 0) await tx.query(sql.lifecycles.record, lifecycleArrays(lifecycles));
    // Nothing runs after it.
    const fresh = await sendLast(tx, lastStatement(target, deferred, facts, lifecycles));
    if (facts.length === 0) return { status: 'applied', value: done.value, token };
    return { status: 'applied', value: done.value, token, counted: countedOf(facts, fresh) };
  }

  return {
    onceLedger: ledger,
    async applyOnce<T>(
      key: string,
      work: (tx: SqlEntitlementStore) => Promise<OnceWork<T>>,
      options: ApplyOnceOptions,
    ): Promise<OnceResult<T>> {
      try {
        return await executor.transaction((tx) => applyIn(tx, key, work, options));
      } catch (error) {
        if (error instanceof RollBack) return error.result as OnceResult<T>;
        if ((error as { code?: unknown } | null)?.code === LOCK_NOT_AVAILABLE)
          return { status: 'in_progress' };
        throw error;
      }
    },
    async reopen(key: string, token: ClaimToken): Promise<void> {
      await executor.query(statements.reopenSql, [keyHash(key), String(token)]);
    },
  };
}
