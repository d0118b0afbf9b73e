import type { TableNames } from '../schema/table-names.js';

/** The SQL of the store, built once per table names. */
export function storeStatements(t: TableNames) {
  const columns = 'account_key, product_uid, subscription_uid, payment_uids, data';
  const key = 'account_key = $1 AND product_uid = $2';
  // $3 subscription_uid, $4 payment_uids, $5 the record as JSON text (the same for both drivers).
  const set =
    'subscription_uid = $3, payment_uids = $4::text[], data = $5::text::jsonb, version = version + 1, updated_at = now()';
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
    insert: `INSERT INTO ${t.entitlements} (${columns}) VALUES ($1, $2, $3, $4::text[], $5::text::jsonb)
      ON CONFLICT (account_key, product_uid) DO NOTHING RETURNING 1 AS written`,
    // Compare-and-set: writes only when the row is still at the version read ($6). The WHERE is
    // evaluated again on the latest row when another write got there first.
    updateIfUnchanged: `UPDATE ${t.entitlements} SET ${set} WHERE ${key} AND version = $6::bigint RETURNING 1 AS written`,
    // Under the lock taken by `lock`: nobody can have written since.
    updateLocked: `UPDATE ${t.entitlements} SET ${set} WHERE ${key}`,
  };
}

export type StoreStatements = ReturnType<typeof storeStatements>;
