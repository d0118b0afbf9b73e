import type { OnceStore } from '@dcbkit/core/store';
import { type OptionNames, refuseUnknownOptions } from '@dcbkit/core/web';
import type { SqlExecutor } from '../executor/sql-executor.js';
import { resolveLedgerOptions, type SqlLedgerOptions } from '../ledger/ledger-options.js';
import { type SqlEventLedger, sqlEventLedger } from '../ledger/sql-event-ledger.js';
import { type MigrateResult, migrate } from '../schema/migrate.js';
import { type TableNameOptions, type TableNames, tableNames } from '../schema/table-names.js';
import { onceMethods } from '../store/apply-once.js';
import { type SqlEntitlementStore, sqlEntitlementStore } from '../store/sql-entitlement-store.js';
import { storeStatements } from '../store/store-statements.js';

export interface SqlStoreOptions extends TableNameOptions, SqlLedgerOptions {}

/** The store and the ledger to hand to createWebhookHandler, over one database. */
export interface SqlStore {
  /**
   * The entitlements, with reconciliation's bookkeeping, the history of every decision and the
   * business view's totals beside them; and `applyOnce`, with which the webhook handler given this
   * `ledger` applies each event in one transaction.
   */
  store: SqlEntitlementStore & OnceStore<SqlEntitlementStore>;
  ledger: SqlEventLedger;
  /** Creates or upgrades the tables; idempotent, and safe from several instances at once. */
  migrate(): Promise<MigrateResult>;
  /** The executor the store and ledger run on, for your own queries in the same database. */
  readonly executor: SqlExecutor;
  /** The quoted, schema-qualified table names (for your own reports and backups). */
  readonly tables: TableNames;
  /** Closes the connection or database the store opened itself; one you passed in stays yours to close. */
  close(): Promise<void>;
}

/** Every option createSqlStore takes: the compiler holds this list to SqlStoreOptions. */
const CREATE_SQL_STORE_OPTIONS: OptionNames<SqlStoreOptions> = {
  schema: true,
  tablePrefix: true,
  leaseMs: true,
  retentionMs: true,
  durableLedger: true,
};

/**
 * The store and ledger over any SqlExecutor: `postgresStore` and `pgliteStore` call it with their
 * adapters. Use it directly for a driver of your own.
 *
 * @example
 * const { store, ledger, migrate } = createSqlStore(fromPg(pool), { schema: 'billing' });
 * await migrate();
 */
export function createSqlStore(executor: SqlExecutor, options: SqlStoreOptions = {}): SqlStore {
  if (typeof executor?.transaction !== 'function') {
    throw new TypeError('createSqlStore: pass a SqlExecutor (fromPg(pool) or fromPglite(db)).');
  }
  if (typeof options === 'object' && options !== null)
    refuseUnknownOptions('createSqlStore', options, CREATE_SQL_STORE_OPTIONS);
  const names = tableNames(options);
  const ledger = sqlEventLedger(executor, names, resolveLedgerOptions(options));
  const sql = storeStatements(names);
  const once = onceMethods(executor, names, sql, ledger);
  return {
    store: Object.assign(sqlEntitlementStore(executor, names, sql), once),
    ledger,
    migrate: () => migrate(executor, names),
    executor,
    tables: names,
    close: async () => {},
  };
}
