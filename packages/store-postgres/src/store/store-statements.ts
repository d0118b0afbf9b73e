import { DEADLINE_PENDING, HEARD_IF_LIVE } from '../schema/due-index-keys.js';
import type { TableNames } from '../schema/table-names.js';
import { duePageStatements } from './due-page.js';
import { historyStatements } from './history-methods.js';
import { lifecycleStatements } from './lifecycle-methods.js';
import { metricsStatements } from './metrics-methods.js';
import { pendingStatements } from './pending-statements.js';

/** The entitlements' own SQL: read, lock, write (with their facts), listed by account, line, subscription or payment. */
function entitlementStatements(t: TableNames) {
  const columns =
    'account_key, product_uid, subscription_uid, data, live_subscription, deadline_at, last_event_at';
  const key = 'account_key = $1 AND product_uid = $2';
  // The write parameters: $3 subscription_uid, $4 the record as JSON text (the same for both
  // drivers), $5 to $7 what reconciliation searches on (core's isLiveSubscription,
  // reconcileDeadline, lastEventAt), $8 and $9 the payment uid and unit order id to record (or null).
  const set =
    'subscription_uid = $3, data = $4::text::jsonb, live_subscription = $5::boolean, ' +
    'deadline_at = $6::timestamptz, last_event_at = $7::timestamptz, version = version + 1, updated_at = now()';
  // Which facts ($3 payment uid, $4 unit order id; null for none) the store holds. payment_ours is
  // true when the payment is this entitlement's, false when another's, null when unrecorded.
  const known = `(SELECT p.account_key = $1 AND p.product_uid = $2 FROM ${t.entitlementPayments} p
      WHERE p.payment_uid = $3) AS payment_ours,
    EXISTS (SELECT 1 FROM ${t.entitlementUnits} u
      WHERE u.account_key = $1 AND u.product_uid = $2 AND u.order_id = $4) AS unit_known`;
  // Wraps a row write (… RETURNING) so that the new facts are inserted only when it wrote, by the
  // same statement: record and facts commit together, and a write that lost records nothing. Facts
  // are never inserted without a write that bumps the version, so a version read together with
  // the facts still vouches for them at the compare-and-set.
  const withFacts = (write: string) => `WITH written AS (${write} RETURNING 1),
    payment AS (INSERT INTO ${t.entitlementPayments} (payment_uid, account_key, product_uid)
      SELECT $8::text, $1::text, $2::text WHERE $8::text IS NOT NULL AND EXISTS (SELECT 1 FROM written)
      ON CONFLICT (payment_uid) DO NOTHING),
    unit AS (INSERT INTO ${t.entitlementUnits} (account_key, product_uid, order_id)
      SELECT $1::text, $2::text, $9::text WHERE $9::text IS NOT NULL AND EXISTS (SELECT 1 FROM written)
      ON CONFLICT DO NOTHING)
    SELECT 1 AS written FROM written`;
  return {
    get: `SELECT data FROM ${t.entitlements} WHERE ${key}`,
    // One row even when the entitlement is missing, and one snapshot for the record, its version
    // and the facts: the optimistic path decides on all three with one round trip.
    getVersioned: `SELECT e.data, e.version::text AS version, ${known}
      FROM (VALUES (1)) AS one (x) LEFT JOIN ${t.entitlements} e ON e.account_key = $1 AND e.product_uid = $2`,
    lock: `SELECT data FROM ${t.entitlements} WHERE ${key} FOR UPDATE`,
    // After the lock, as a statement of its own: a statement's snapshot is taken before it waits
    // for a lock, so facts read by the locking one could miss those the holder just committed.
    known: `SELECT ${known}`,
    // COLLATE "C": productUid order as JavaScript compares them, whatever the database's locale.
    list: `SELECT data FROM ${t.entitlements} WHERE account_key = $1 ORDER BY product_uid COLLATE "C"`,
    // The expression and order of migration 10's index, so that the index answers it.
    byLine: `SELECT data FROM ${t.entitlements} WHERE data->>'subscriberUid' = $1
      ORDER BY account_key COLLATE "C", product_uid COLLATE "C"`,
    bySubscription: `SELECT data FROM ${t.entitlements} WHERE subscription_uid = $1
      ORDER BY account_key COLLATE "C", product_uid COLLATE "C" LIMIT 1`,
    // A payment uid is recorded for one entitlement at most (it is the key).
    byPayment: `SELECT e.data FROM ${t.entitlementPayments} p
      JOIN ${t.entitlements} e ON e.account_key = p.account_key AND e.product_uid = p.product_uid
      WHERE p.payment_uid = $1`,
    // Writes only when nobody created it meanwhile (the insert waits for a concurrent one to commit).
    insert: withFacts(`INSERT INTO ${t.entitlements} (${columns})
      VALUES ($1, $2, $3, $4::text::jsonb, $5::boolean, $6::timestamptz, $7::timestamptz)
      ON CONFLICT (account_key, product_uid) DO NOTHING`),
    // Compare-and-set: writes only when the row is still at the version read ($10). The WHERE is
    // evaluated again on the latest row when another write got there first.
    updateIfUnchanged: withFacts(
      `UPDATE ${t.entitlements} SET ${set} WHERE ${key} AND version = $10::bigint`,
    ),
    // Under the lock taken by `lock`: nobody can have written since.
    updateLocked: withFacts(`UPDATE ${t.entitlements} SET ${set} WHERE ${key}`),
    markReconciled: `UPDATE ${t.entitlements}
      SET reconciled_at = GREATEST(reconciled_at, $3::timestamptz) WHERE ${key}`,
  };
}

/** Reconciliation's due listing: the entitlements due, in key order, a page at a time. */
function dueStatement(t: TableNames): string {
  // The paging key, in JavaScript's string order (see list): a row comparison, which the indexes
  // of the due listing check entry by entry.
  const keyOrder = 'account_key COLLATE "C", product_uid COLLATE "C"';
  const afterKey = `(${keyOrder}) > ($3::text, $4::text)`;
  // Core's dueReason as SQL, one part per reason, each on its index of migration 6: a deadline
  // passed with nothing heard since, or nothing heard since staleBefore. Each index is read from
  // its oldest date up to the one asked, so it yields the due rows only, the paging key checked
  // in the index: a page costs what the due entitlements do, whatever the number of others.
  // Then the first `limit` keys of both, and their records. $1 now, $2 staleBefore (or null:
  // no row is stale), after ($3, $4), $5 limit.
  return `SELECT e.data FROM (
        SELECT account_key, product_uid FROM (
          (SELECT account_key, product_uid FROM ${t.entitlements}
            WHERE ${DEADLINE_PENDING} AND deadline_at <= $1::timestamptz AND ${afterKey}
            ORDER BY ${keyOrder} LIMIT $5)
          UNION
          (SELECT account_key, product_uid FROM ${t.entitlements}
            WHERE ${HEARD_IF_LIVE} < $2::timestamptz AND ${afterKey}
            ORDER BY ${keyOrder} LIMIT $5)
        ) AS due
        ORDER BY ${keyOrder} LIMIT $5
      ) AS page
      JOIN ${t.entitlements} e ON e.account_key = page.account_key AND e.product_uid = page.product_uid
      ORDER BY page.account_key COLLATE "C", page.product_uid COLLATE "C"`;
}

/** The named locks under a lease (lease-lock.ts). */
function leaseLockStatements(t: TableNames) {
  return {
    // Takes the lock $1 for token $2 for $3 seconds, unless another holder's lease is still running
    // (the database's clock decides, so instances with skewed clocks agree).
    takeLock: `INSERT INTO ${t.locks} (name, token, expires_at)
      VALUES ($1, $2, now() + make_interval(secs => $3))
      ON CONFLICT (name) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
        WHERE ${t.locks}.expires_at <= now()
      RETURNING token`,
    renewLock: `UPDATE ${t.locks} SET expires_at = now() + make_interval(secs => $3)
      WHERE name = $1 AND token = $2`,
    releaseLock: `DELETE FROM ${t.locks} WHERE name = $1 AND token = $2`,
  };
}

/** The SQL of the store, built once per table names. */
export function storeStatements(t: TableNames) {
  return {
    ...duePageStatements(t),
    history: historyStatements(t),
    metrics: metricsStatements(t),
    lifecycles: lifecycleStatements(t),
    ...entitlementStatements(t),
    due: dueStatement(t),
    ...pendingStatements(t),
    ...leaseLockStatements(t),
  };
}

export type StoreStatements = ReturnType<typeof storeStatements>;
