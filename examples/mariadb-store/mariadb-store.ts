// A worked second store, on MariaDB (or MySQL) with mysql2: what docs/store-authors.md asks of a
// store, written as a partner would, and proven by core's conformance suites
// (mariadb-store.test.ts). It implements EntitlementStore and EventLedger; reconciliation's
// bookkeeping (ReconcileStore) is left out, as a partner may: the kit then refuses `reconcile`.
import { createHash, randomUUID } from 'node:crypto';
import type { Entitlement } from '@dcbkit/core';
import { entitlementSchema } from '@dcbkit/core/schemas';
import type { Claim, ClaimToken, EntitlementStore, EventLedger } from '@dcbkit/core/store';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';

/** The tables' names: one prefix, so that two apps (or two test runs) share a database. */
export function tableNamesOf(prefix = 'dcbkit_') {
  const name = (table: string) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new Error(`mariadbStore: bad table prefix ${prefix}`);
    return `\`${prefix}${table}\``;
  };
  return {
    entitlements: name('entitlements'),
    payments: name('entitlement_payments'),
    units: name('entitlement_units'),
    locks: name('entitlement_locks'),
    events: name('events'),
  };
}

type Tables = ReturnType<typeof tableNamesOf>;

// Keys compare byte for byte: MariaDB's default collation is case-insensitive, which would merge
// `user_A` and `user_a` into one account.
const KEY = 'VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL';

/** Creates the tables if they are missing. */
export async function createTables(pool: Pool, tables: Tables = tableNamesOf()): Promise<void> {
  const statements = [
    `CREATE TABLE IF NOT EXISTS ${tables.entitlements} (
      account_key ${KEY}, product_uid ${KEY},
      subscription_uid VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
      data LONGTEXT NOT NULL,
      PRIMARY KEY (account_key, product_uid), KEY (subscription_uid)
    ) ENGINE=InnoDB`,
    `CREATE TABLE IF NOT EXISTS ${tables.payments} (
      payment_uid ${KEY}, account_key ${KEY}, product_uid ${KEY}, PRIMARY KEY (payment_uid)
    ) ENGINE=InnoDB`,
    `CREATE TABLE IF NOT EXISTS ${tables.units} (
      account_key ${KEY}, product_uid ${KEY}, order_id ${KEY}, PRIMARY KEY (account_key, product_uid, order_id)
    ) ENGINE=InnoDB`,
    // A row that exists before the entitlement does: locking it serialises even the first updates.
    `CREATE TABLE IF NOT EXISTS ${tables.locks} (
      account_key ${KEY}, product_uid ${KEY}, PRIMARY KEY (account_key, product_uid)
    ) ENGINE=InnoDB`,
    `CREATE TABLE IF NOT EXISTS ${tables.events} (
      key_hash CHAR(64) CHARACTER SET ascii NOT NULL PRIMARY KEY,
      state ENUM('in_progress', 'completed') NOT NULL,
      token CHAR(36) CHARACTER SET ascii NULL,
      lease_until DATETIME(3) NULL
    ) ENGINE=InnoDB`,
  ];
  for (const statement of statements) await pool.query(statement);
}

const DEADLOCK = 1213;
const LOCK_WAIT_TIMEOUT = 1205;
const MAX_ATTEMPTS = 5;

/** Runs `work` in a READ COMMITTED transaction, again from the start after a deadlock. */
async function inTransaction<T>(pool: Pool, work: (connection: PoolConnection) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const connection = await pool.getConnection();
    try {
      await connection.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
      await connection.beginTransaction();
      const result = await work(connection);
      await connection.commit();
      return result;
    } catch (error) {
      await connection.rollback().catch(() => {});
      const errno = (error as { errno?: number }).errno;
      if ((errno === DEADLOCK || errno === LOCK_WAIT_TIMEOUT) && attempt < MAX_ATTEMPTS) continue;
      throw error;
    } finally {
      connection.release();
    }
  }
}

function recordOf(rows: RowDataPacket[]): Entitlement | undefined {
  const row = rows[0];
  return row === undefined ? undefined : entitlementSchema.parse(JSON.parse(row.data as string));
}

/** An EntitlementStore on MariaDB. */
export function mariadbStore(pool: Pool, tables: Tables = tableNamesOf()): EntitlementStore {
  const select = `SELECT data FROM ${tables.entitlements}`;
  return {
    async get(accountKey, productUid) {
      const [rows] = await pool.query<RowDataPacket[]>(
        `${select} WHERE account_key = ? AND product_uid = ?`,
        [accountKey, productUid],
      );
      return recordOf(rows);
    },
    update(accountKey, productUid, change, facts = {}) {
      const key = [accountKey, productUid];
      return inTransaction(pool, async (connection) => {
        // An upsert takes the lock row's exclusive lock at once, created or not: no shared lock to
        // upgrade (INSERT IGNORE then SELECT … FOR UPDATE deadlocks under contention).
        await connection.query(
          `INSERT INTO ${tables.locks} (account_key, product_uid) VALUES (?, ?)
           ON DUPLICATE KEY UPDATE account_key = account_key`,
          key,
        );
        const [rows] = await connection.query<RowDataPacket[]>(
          `${select} WHERE account_key = ? AND product_uid = ?`,
          key,
        );
        const current = recordOf(rows);
        const [known] = await connection.query<RowDataPacket[]>(
          `SELECT EXISTS (SELECT 1 FROM ${tables.payments}
                           WHERE payment_uid = ? AND account_key = ? AND product_uid = ?) AS paymentUid,
                  EXISTS (SELECT 1 FROM ${tables.units}
                           WHERE account_key = ? AND product_uid = ? AND order_id = ?) AS unitOrderId`,
          [facts.paymentUid ?? null, ...key, ...key, facts.unitOrderId ?? null],
        );
        const next = change(current, {
          paymentUid: Boolean(known[0]?.paymentUid),
          unitOrderId: Boolean(known[0]?.unitOrderId),
        });
        if (next === undefined) return { previous: current, next: current, wrote: false };
        if (next.accountKey !== accountKey || next.productUid !== productUid) {
          throw new Error(
            `mariadbStore.update(${accountKey}, ${productUid}): the change returned another key.`,
          );
        }
        let wrote = next !== current;
        if (wrote) {
          await connection.query(
            `INSERT INTO ${tables.entitlements} (account_key, product_uid, subscription_uid, data) VALUES (?, ?, ?, ?)
             ON DUPLICATE KEY UPDATE subscription_uid = VALUES(subscription_uid), data = VALUES(data)`,
            [...key, next.subscriptionUid, JSON.stringify(next)],
          );
        }
        if (facts.paymentUid !== undefined) {
          const [inserted] = await connection.query<ResultSetHeader>(
            `INSERT IGNORE INTO ${tables.payments} (payment_uid, account_key, product_uid) VALUES (?, ?, ?)`,
            [facts.paymentUid, ...key],
          );
          wrote ||= inserted.affectedRows === 1;
        }
        if (facts.unitOrderId !== undefined) {
          const [inserted] = await connection.query<ResultSetHeader>(
            `INSERT IGNORE INTO ${tables.units} (account_key, product_uid, order_id) VALUES (?, ?, ?)`,
            [...key, facts.unitOrderId],
          );
          wrote ||= inserted.affectedRows === 1;
        }
        return { previous: current, next, wrote };
      });
    },
    async listByAccount(accountKey) {
      const [rows] = await pool.query<RowDataPacket[]>(
        `${select} WHERE account_key = ? ORDER BY product_uid`,
        [accountKey],
      );
      return rows.map((row) => entitlementSchema.parse(JSON.parse(row.data as string)));
    },
    async findBySubscriptionUid(subscriptionUid) {
      const [rows] = await pool.query<RowDataPacket[]>(`${select} WHERE subscription_uid = ?`, [
        subscriptionUid,
      ]);
      return recordOf(rows);
    },
    async findByPaymentUid(paymentUid) {
      const [rows] = await pool.query<RowDataPacket[]>(
        `SELECT e.data FROM ${tables.entitlements} e JOIN ${tables.payments} p
           ON p.account_key = e.account_key AND p.product_uid = e.product_uid
         WHERE p.payment_uid = ?`,
        [paymentUid],
      );
      return recordOf(rows);
    },
  };
}

const DUPLICATE: Claim = { status: 'duplicate' };
const IN_PROGRESS: Claim = { status: 'in_progress' };

/** An EventLedger on MariaDB: one statement per step, leases by the database's clock. */
export function mariadbLedger(
  pool: Pool,
  { leaseMs = 60_000, tables = tableNamesOf() }: { leaseMs?: number; tables?: Tables } = {},
): EventLedger {
  const t = tables.events;
  const hashOf = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');
  const lease = 'NOW(3) + INTERVAL ? MICROSECOND';
  return {
    async claim(key) {
      const hash = hashOf(key);
      const token = randomUUID();
      for (let attempt = 0; attempt < 3; attempt++) {
        const [inserted] = await pool.query<ResultSetHeader>(
          `INSERT IGNORE INTO ${t} (key_hash, state, token, lease_until) VALUES (?, 'in_progress', ?, ${lease})`,
          [hash, token, leaseMs * 1000],
        );
        if (inserted.affectedRows === 1) return { status: 'new', token };
        const [rows] = await pool.query<RowDataPacket[]>(
          `SELECT state, lease_until <= NOW(3) AS lapsed FROM ${t} WHERE key_hash = ?`,
          [hash],
        );
        const row = rows[0];
        if (row?.state === 'completed') return DUPLICATE;
        if (row?.state === 'in_progress' && !row.lapsed) return IN_PROGRESS;
        if (row?.state === 'in_progress') {
          // Of several deliveries taking a lapsed claim over at once, the WHERE lets one through.
          const [takenOver] = await pool.query<ResultSetHeader>(
            `UPDATE ${t} SET token = ?, lease_until = ${lease}
             WHERE key_hash = ? AND state = 'in_progress' AND lease_until <= NOW(3)`,
            [token, leaseMs * 1000, hash],
          );
          if (takenOver.affectedRows === 1) return { status: 'new', token };
        }
      }
      return IN_PROGRESS;
    },
    async complete(key, token: ClaimToken) {
      const hash = hashOf(key);
      const [updated] = await pool.query<ResultSetHeader>(
        `UPDATE ${t} SET state = 'completed', token = NULL, lease_until = NULL
         WHERE key_hash = ? AND state = 'in_progress' AND (token <=> ? OR lease_until <= NOW(3))`,
        [hash, String(token)],
      );
      // A claim that is gone (pruned, released) still gets its completion; a retaken one does not.
      if (updated.affectedRows === 0) {
        await pool.query(`INSERT IGNORE INTO ${t} (key_hash, state) VALUES (?, 'completed')`, [hash]);
      }
    },
    async release(key, token: ClaimToken) {
      await pool.query(`DELETE FROM ${t} WHERE key_hash = ? AND state = 'in_progress' AND token <=> ?`, [
        hashOf(key),
        String(token),
      ]);
    },
  };
}
