import type { HistoryEntry, PaymentEnding } from '@dcbkit/core/store';
import type { TableNames } from '../schema/table-names.js';
import { HISTORY_COLUMNS, historyParams } from './history-methods.js';
import type { StoreStatements } from './store-statements.js';

/**
 * The writes of an event that nothing in its transaction reads back: its history entries and its
 * pending payment's ending. Held until the event's work is done, then sent with the key's target
 * as one statement (deferredStatement), so that they cost one round trip, not one each.
 */
export interface DeferredWrites {
  history: HistoryEntry[];
  /** A pending payment ended (`ending`), or forgotten (no ending). */
  payments: { paymentUid: string; ending: PaymentEnding | undefined }[];
}

export function noDeferredWrites(): DeferredWrites {
  return { history: [], payments: [] };
}

/** One part of the statement: its SQL with $1-based parameters of its own, and their values. */
interface Part {
  sql: string;
  params: unknown[];
}

/**
 * The event's last statement: the key's target (when the event was applied to an entitlement),
 * then every deferred write, as data-modifying CTEs of one statement. Their tables differ, so no
 * part needs to see another's rows. Undefined when there is nothing to write.
 */
export function deferredStatement(
  t: TableNames,
  sql: StoreStatements,
  target: { hash: string; accountKey: string; productUid: string } | undefined,
  writes: DeferredWrites,
): Part | undefined {
  const parts: Part[] = [];
  if (target !== undefined) {
    parts.push({
      sql: `UPDATE ${t.events} SET account_key = $2, product_uid = $3 WHERE key_hash = decode($1, 'hex')`,
      params: [target.hash, target.accountKey, target.productUid],
    });
  }
  for (const entry of writes.history) {
    parts.push({
      sql: `INSERT INTO ${t.history} (${HISTORY_COLUMNS}) VALUES (${placeholders(15)})`,
      params: historyParams(entry),
    });
  }
  for (const { paymentUid, ending } of writes.payments) {
    parts.push(
      ending === undefined
        ? { sql: sql.removePending, params: [paymentUid] }
        : {
            sql: sql.endPending,
            params: [
              paymentUid,
              ending.status,
              ending.failureCode ?? null,
              ending.at,
              ending.subscriberUid ?? null,
            ],
          },
    );
  }
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  const params: unknown[] = [];
  const ctes = parts.map((part, n) => {
    const offset = params.length;
    params.push(...part.params);
    return `w${n} AS (${part.sql.replace(/\$(\d+)/g, (_, i: string) => `$${Number(i) + offset}`)})`;
  });
  return { sql: `WITH ${ctes.join(',\n')} SELECT 1`, params };
}

function placeholders(count: number): string {
  return Array.from({ length: count }, (_, i) => `$${i + 1}`).join(', ');
}
