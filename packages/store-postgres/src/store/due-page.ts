import type { Entitlement } from '@dcbkit/core';
import type { DuePage, DuePageQuery } from '@dcbkit/core/store';
import type { SqlQueryable } from '../executor/sql-executor.js';
import { DEADLINE_PENDING, HEARD_IF_LIVE } from '../schema/due-index-keys.js';
import type { TableNames } from '../schema/table-names.js';

/** Where a pass is: the reason walked, and the last row's index key (its date as text, exact). */
interface Position {
  reason: 'deadline' | 'age';
  at: string;
  accountKey: string;
  productUid: string;
}

interface DueRow {
  data: Entitlement;
  at: string;
}

const START: Position = { reason: 'deadline', at: '-infinity', accountKey: '', productUid: '' };

/**
 * The due listing as a walk of migration 6's two indexes, each in its own order (the date, then
 * the key), from where the last page ended: a page reads `limit` index entries from a position, so
 * it costs the same however many entitlements there are, and however many are due. First the
 * deadlines passed, then the subscriptions not heard of since staleBefore that are not also due
 * by their deadline (those were listed already). Core's dueReason, as the key-ordered listing.
 */
export function duePageStatements(t: TableNames) {
  const keyOrder = 'account_key COLLATE "C", product_uid COLLATE "C"';
  const deadlineDue = `${DEADLINE_PENDING} AND deadline_at <= $1::timestamptz`;
  // $1 now, $2 the position's date, $3 and $4 its key, $5 limit (, $6 staleBefore).
  return {
    dueByDeadline: `SELECT data, deadline_at::text AS at FROM ${t.entitlements}
      WHERE ${deadlineDue}
        AND (deadline_at, ${keyOrder}) > ($2::timestamptz, $3::text, $4::text)
      ORDER BY deadline_at, ${keyOrder} LIMIT $5`,
    dueByAge: `SELECT data, (${HEARD_IF_LIVE})::text AS at FROM ${t.entitlements}
      WHERE ${HEARD_IF_LIVE} < $6::timestamptz
        AND (${HEARD_IF_LIVE}, ${keyOrder}) > ($2::timestamptz, $3::text, $4::text)
        AND NOT (${deadlineDue})
      ORDER BY ${HEARD_IF_LIVE}, ${keyOrder} LIMIT $5`,
  };
}

/** One page of the walk (see duePageStatements), on the statements of the store's tables. */
export async function listDuePage(
  executor: SqlQueryable,
  sql: ReturnType<typeof duePageStatements>,
  query: DuePageQuery,
): Promise<DuePage> {
  let position = query.cursor === undefined ? START : positionOf(query.cursor);
  const entitlements: Entitlement[] = [];
  for (;;) {
    const wanted = query.limit - entitlements.length;
    if (position.reason === 'age' && query.staleBefore === null) return { entitlements, cursor: undefined };
    const params = [query.now.toISOString(), position.at, position.accountKey, position.productUid, wanted];
    const { rows } =
      position.reason === 'deadline'
        ? await executor.query<DueRow>(sql.dueByDeadline, params)
        : await executor.query<DueRow>(sql.dueByAge, [...params, query.staleBefore?.toISOString()]);
    for (const row of rows) entitlements.push(row.data);
    const last = rows.at(-1);
    if (last !== undefined) {
      position = {
        reason: position.reason,
        at: last.at,
        accountKey: last.data.accountKey,
        productUid: last.data.productUid,
      };
    }
    if (rows.length === wanted) return { entitlements, cursor: JSON.stringify(position) };
    // This reason is walked to its end: the next, from its start, or the pass is over.
    if (position.reason === 'age') return { entitlements, cursor: undefined };
    position = { ...START, reason: 'age' };
  }
}

function positionOf(cursor: string): Position {
  const parsed = JSON.parse(cursor) as Partial<Position>;
  if (
    (parsed.reason !== 'deadline' && parsed.reason !== 'age') ||
    typeof parsed.at !== 'string' ||
    typeof parsed.accountKey !== 'string' ||
    typeof parsed.productUid !== 'string'
  ) {
    throw new TypeError(`listDuePage: not a cursor this store answered: ${cursor}`);
  }
  return parsed as Position;
}
