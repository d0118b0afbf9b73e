import { createHash } from 'node:crypto';
import type { Entitlement, PendingPayment, ReconcileStore, ReleaseLock } from '@dcbkit/core/store';
import type { SqlExecutor, SqlQueryable } from '../executor/sql-executor.js';
import type { TableNames } from '../schema/table-names.js';
import type { StoreStatements } from './store-statements.js';

interface PendingRow {
  payment_uid: string;
  account_key: string;
  product_uid: string;
  offer_uid: string;
  recorded_at: Date | string;
}

/** Reconciliation's bookkeeping beside the entitlements (core's ReconcileStore, docs/reconcile.md). */
export function reconcileMethods(
  executor: SqlExecutor,
  sql: StoreStatements,
  names: TableNames,
): ReconcileStore {
  const processLocks = new Set<string>();
  return {
    async listDueEntitlements({ now, staleBefore, after, limit }) {
      const { rows } = await executor.query<{ data: Entitlement }>(sql.due, [
        now.toISOString(),
        staleBefore?.toISOString() ?? null,
        after?.accountKey ?? '',
        after?.productUid ?? '',
        limit,
      ]);
      return rows.map((row) => row.data);
    },
    async markReconciled({ accountKey, productUid }, at) {
      await executor.query(sql.markReconciled, [accountKey, productUid, at.toISOString()]);
    },
    async recordPendingPayment(payment) {
      await executor.query(sql.recordPending, [
        payment.paymentUid,
        payment.accountKey,
        payment.productUid,
        payment.offerUid,
        payment.recordedAt,
      ]);
    },
    async listPendingPayments({ after, limit }) {
      const { rows } = await executor.query<PendingRow>(sql.listPending, [after ?? '', limit]);
      return rows.map(
        (row): PendingPayment => ({
          paymentUid: row.payment_uid,
          accountKey: row.account_key,
          productUid: row.product_uid,
          offerUid: row.offer_uid,
          recordedAt: new Date(row.recorded_at).toISOString(),
        }),
      );
    },
    async removePendingPayment(paymentUid) {
      await executor.query(sql.removePending, [paymentUid]);
    },
    async tryLock(name) {
      if (executor.session === undefined) return processLock(processLocks, name);
      return advisoryLock(executor, lockId(names, name));
    },
  };
}

/** A lock per schema and prefix: two apps on one database with their own tables do not block each other. */
function lockId(names: TableNames, name: string): string {
  const digest = createHash('sha256')
    .update(`dcbkit-store-postgres:lock:${names.schema}:${names.prefix}:${name}`)
    .digest();
  return digest.readBigInt64BE(0).toString();
}

/**
 * pg_try_advisory_lock on a connection held until the release: across every instance on the
 * database, and let go by PostgreSQL itself if the holder's process dies with its connection.
 */
function advisoryLock(executor: SqlExecutor, id: string): Promise<ReleaseLock | undefined> {
  if (executor.session === undefined) throw new Error('advisoryLock needs executor.session');
  const session: <T>(work: (connection: SqlQueryable) => Promise<T>) => Promise<T> =
    executor.session.bind(executor);
  let answer!: (release: ReleaseLock | undefined) => void;
  const answered = new Promise<ReleaseLock | undefined>((resolve) => {
    answer = resolve;
  });
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  const held = session<void>(async (connection) => {
    const { rows } = await connection.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1::bigint) AS locked',
      [id],
    );
    if (rows[0]?.locked !== true) {
      answer(undefined);
      return;
    }
    let done = false;
    answer(async () => {
      if (done) return;
      done = true;
      letGo();
      await held;
    });
    await released;
    await connection.query('SELECT pg_advisory_unlock($1::bigint)', [id]);
  });
  // A failure before the answer (no connection, say) rejects here; after it, the release rejects.
  return Promise.race([answered, held.then(() => answered)]);
}

/** Without a dedicated connection (PGlite: one process, one connection), runs in this process are kept apart. */
function processLock(locks: Set<string>, name: string): ReleaseLock | undefined {
  if (locks.has(name)) return undefined;
  locks.add(name);
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    locks.delete(name);
  };
}
