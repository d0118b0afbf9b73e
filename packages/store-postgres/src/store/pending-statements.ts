import type { TableNames } from '../schema/table-names.js';
import { numbered } from './sql-params.js';

const pendingColumns =
  'payment_uid, account_key, product_uid, offer_uid, recorded_at, checkout_url, expires_at, ended_status, ended_failure_code, ended_at, ended_subscriber_uid, shown';

/** A pending payment forgotten; its uid at `$[0]`. */
export function removePendingSql(t: TableNames, $: readonly string[]): string {
  const [paymentUid] = $;
  return `DELETE FROM ${t.pendingPayments} WHERE payment_uid = ${paymentUid}`;
}

/**
 * A pending payment ended; `$` holds the placeholders of its uid, status, failure code, time and
 * line. The first time stays; a code or a line is never replaced by none (a webhook after the read
 * that gave it).
 */
export function endPendingSql(t: TableNames, $: readonly string[]): string {
  const [paymentUid, status, failureCode, at, subscriberUid] = $;
  return `UPDATE ${t.pendingPayments} SET ended_status = ${status},
        ended_failure_code = COALESCE(${failureCode}, ended_failure_code),
        ended_at = COALESCE(ended_at, ${at}::timestamptz),
        ended_subscriber_uid = COALESCE(${subscriberUid}, ended_subscriber_uid)
      WHERE payment_uid = ${paymentUid}`;
}

/** The pending payments' SQL (checkouts not settled yet, what reconciliation reads), built once per table names. */
export function pendingStatements(t: TableNames) {
  return {
    recordPending: `INSERT INTO ${t.pendingPayments}
        (payment_uid, account_key, product_uid, offer_uid, recorded_at, checkout_url, expires_at, shown)
      VALUES ($1, $2, $3, $4, $5::timestamptz, $6, $7::timestamptz, $8::jsonb) ON CONFLICT (payment_uid) DO NOTHING`,
    listPending: `SELECT ${pendingColumns} FROM ${t.pendingPayments}
      WHERE payment_uid COLLATE "C" > $1 AND ended_status IS NULL ORDER BY payment_uid COLLATE "C" LIMIT $2`,
    listPendingOfAccount: `SELECT ${pendingColumns} FROM ${t.pendingPayments}
      WHERE account_key = $1 ORDER BY payment_uid COLLATE "C"`,
    removePending: removePendingSql(t, numbered(1)),
    endPending: endPendingSql(t, numbered(5)),
    // endPending sets ended_at with ended_status, so the partial index on ended_at covers it.
    pruneEnded: `WITH removed AS (DELETE FROM ${t.pendingPayments}
        WHERE ended_status IS NOT NULL AND ended_at < $1::timestamptz RETURNING 1)
      SELECT count(*)::int AS removed FROM removed`,
  };
}
