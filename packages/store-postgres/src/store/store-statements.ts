import type { TableNames } from '../schema/table-names.js';

/** The SQL of the store, built once per table names. */
export function storeStatements(t: TableNames) {
  const columns =
    'account_key, product_uid, subscription_uid, payment_uids, data, live_subscription, deadline_at, last_event_at';
  const key = 'account_key = $1 AND product_uid = $2';
  // $3 subscription_uid, $4 payment_uids, $5 the record as JSON text (the same for both drivers),
  // $6 to $8 what reconciliation searches on (core's isLiveSubscription, reconcileDeadline, lastEventAt).
  const set =
    'subscription_uid = $3, payment_uids = $4::text[], data = $5::text::jsonb, live_subscription = $6::boolean, ' +
    'deadline_at = $7::timestamptz, last_event_at = $8::timestamptz, version = version + 1, updated_at = now()';
  // When the entitlement was last heard of: GREATEST skips nulls (null only when both are).
  const heard = 'GREATEST(last_event_at, reconciled_at)';
  return {
    get: `SELECT data FROM ${t.entitlements} WHERE ${key}`,
    getVersioned: `SELECT data, version::text AS version FROM ${t.entitlements} WHERE ${key}`,
    lock: `SELECT data FROM ${t.entitlements} WHERE ${key} FOR UPDATE`,
    // COLLATE "C": productUid order as JavaScript compares them, whatever the database's locale.
    list: `SELECT data FROM ${t.entitlements} WHERE account_key = $1 ORDER BY product_uid COLLATE "C"`,
    bySubscription: `SELECT data FROM ${t.entitlements} WHERE subscription_uid = $1
      ORDER BY account_key COLLATE "C", product_uid COLLATE "C" LIMIT 1`,
    // @> (not = ANY) so that the GIN index on payment_uids is used.
    byPayment: `SELECT data FROM ${t.entitlements} WHERE payment_uids @> ARRAY[$1::text]
      ORDER BY account_key COLLATE "C", product_uid COLLATE "C" LIMIT 1`,
    // Writes only when nobody created it meanwhile (the insert waits for a concurrent one to commit).
    insert: `INSERT INTO ${t.entitlements} (${columns})
      VALUES ($1, $2, $3, $4::text[], $5::text::jsonb, $6::boolean, $7::timestamptz, $8::timestamptz)
      ON CONFLICT (account_key, product_uid) DO NOTHING RETURNING 1 AS written`,
    // Compare-and-set: writes only when the row is still at the version read ($6). The WHERE is
    // evaluated again on the latest row when another write got there first.
    updateIfUnchanged: `UPDATE ${t.entitlements} SET ${set} WHERE ${key} AND version = $9::bigint RETURNING 1 AS written`,
    // Under the lock taken by `lock`: nobody can have written since.
    updateLocked: `UPDATE ${t.entitlements} SET ${set} WHERE ${key}`,
    // Core's dueReason as SQL: $1 now, $2 staleBefore (or null), after ($3, $4), $5 limit.
    due: `SELECT data FROM ${t.entitlements}
      WHERE live_subscription
        AND ((deadline_at <= $1::timestamptz AND (${heard} IS NULL OR ${heard} < deadline_at))
          OR ($2::timestamptz IS NOT NULL AND (${heard} IS NULL OR ${heard} < $2::timestamptz)))
        AND (account_key COLLATE "C" > $3 OR (account_key = $3 AND product_uid COLLATE "C" > $4))
      ORDER BY account_key COLLATE "C", product_uid COLLATE "C" LIMIT $5`,
    markReconciled: `UPDATE ${t.entitlements}
      SET reconciled_at = GREATEST(reconciled_at, $3::timestamptz) WHERE ${key}`,
    recordPending: `INSERT INTO ${t.pendingPayments} (payment_uid, account_key, product_uid, offer_uid, recorded_at)
      VALUES ($1, $2, $3, $4, $5::timestamptz) ON CONFLICT (payment_uid) DO NOTHING`,
    listPending: `SELECT payment_uid, account_key, product_uid, offer_uid, recorded_at FROM ${t.pendingPayments}
      WHERE payment_uid COLLATE "C" > $1 ORDER BY payment_uid COLLATE "C" LIMIT $2`,
    removePending: `DELETE FROM ${t.pendingPayments} WHERE payment_uid = $1`,
  };
}

export type StoreStatements = ReturnType<typeof storeStatements>;
