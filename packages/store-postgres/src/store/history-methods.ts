import type { HistoryEntry, HistoryStore } from '@dcbkit/core/store';
import type { SqlExecutor } from '../executor/sql-executor.js';
import type { TableNames } from '../schema/table-names.js';
import { numbered } from './sql-params.js';

interface HistoryRow {
  recorded_at: Date | string;
  account_key: string;
  product_uid: string;
  source: HistoryEntry['source'];
  decision: HistoryEntry['decision'];
  event_name: string | null;
  event_key: string | null;
  occurred_at: string | null;
  payment_uid: string | null;
  subscription_uid: string | null;
  status_before: HistoryEntry['statusBefore'];
  status_after: HistoryEntry['statusAfter'];
  units_before: number | null;
  units_after: number | null;
  subscriber_uid: string | null;
}

/** The history table's columns in the order every insert of an entry gives them. */
export const HISTORY_COLUMNS = `recorded_at, account_key, product_uid, source, decision, event_name, event_key, occurred_at,
  payment_uid, subscription_uid, status_before, status_after, units_before, units_after, subscriber_uid`;

function entryOf(row: HistoryRow): HistoryEntry {
  return {
    recordedAt: new Date(row.recorded_at).toISOString(),
    accountKey: row.account_key,
    productUid: row.product_uid,
    source: row.source,
    decision: row.decision,
    eventName: row.event_name,
    eventKey: row.event_key,
    occurredAt: row.occurred_at,
    paymentUid: row.payment_uid,
    subscriptionUid: row.subscription_uid,
    statusBefore: row.status_before,
    statusAfter: row.status_after,
    unitsBefore: row.units_before,
    unitsAfter: row.units_after,
    // Only the entries that name a line carry one (see HistoryEntry.subscriberUid).
    ...(row.subscriber_uid === null ? {} : { subscriberUid: row.subscriber_uid }),
  };
}

/** How many values an entry has: one per column of HISTORY_COLUMNS. */
const HISTORY_PARAMS = 15;

/** An entry's values in the order of HISTORY_COLUMNS. */
export function historyParams(entry: HistoryEntry): unknown[] {
  return [
    entry.recordedAt,
    entry.accountKey,
    entry.productUid,
    entry.source,
    entry.decision,
    entry.eventName,
    entry.eventKey,
    entry.occurredAt,
    entry.paymentUid,
    entry.subscriptionUid,
    entry.statusBefore,
    entry.statusAfter,
    entry.unitsBefore,
    entry.unitsAfter,
    entry.subscriberUid ?? null,
  ];
}

/** One entry's insert, its values at `$` (the placeholders of historyParams' values, in order). */
export function appendHistorySql(t: TableNames, $: readonly string[]): string {
  return `INSERT INTO ${t.history} (${HISTORY_COLUMNS})
    VALUES (${$.join(', ')})`;
}

/** The history's SQL, built once per table names (storeStatements). */
export function historyStatements(t: TableNames) {
  return {
    append: appendHistorySql(t, numbered(HISTORY_PARAMS)),
    ofAccount: `SELECT ${HISTORY_COLUMNS} FROM ${t.history}
    WHERE account_key = $1 AND ($2::text IS NULL OR product_uid = $2) ORDER BY id DESC LIMIT $3`,
    recent: `SELECT ${HISTORY_COLUMNS} FROM ${t.history} ORDER BY id DESC LIMIT $1`,
    prune: `WITH removed AS (DELETE FROM ${t.history} WHERE recorded_at < $1 RETURNING 1)
    SELECT count(*)::int AS removed FROM removed`,
  };
}

/**
 * The history of every decision (core's HistoryStore, docs/operations.md): one row per entry in
 * the history table of migration 7 (with the line of migration 10), newest first by its serial id, which is the append order also
 * among entries of one millisecond.
 */
export function historyMethods(
  executor: SqlExecutor,
  { append, ofAccount, recent, prune }: ReturnType<typeof historyStatements>,
): HistoryStore {
  return {
    async appendHistory(entry) {
      await executor.query(append, historyParams(entry));
    },
    async listHistory({ accountKey, productUid, limit }) {
      const { rows } =
        accountKey === undefined
          ? await executor.query<HistoryRow>(recent, [limit])
          : await executor.query<HistoryRow>(ofAccount, [accountKey, productUid ?? null, limit]);
      return rows.map(entryOf);
    },
    async pruneHistory(before) {
      const { rows } = await executor.query<{ removed: number }>(prune, [before.toISOString()]);
      return rows[0]?.removed ?? 0;
    },
  };
}
