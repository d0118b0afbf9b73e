export { createSqlStore, type SqlStore, type SqlStoreOptions } from './connect/create-sql-store.js';
export { type PgliteStore, type PgliteStoreOptions, pgliteStore } from './connect/pglite-store.js';
export { type PostgresStoreOptions, postgresStore } from './connect/postgres-store.js';
export { DataFolderInUseError, type FolderHolder } from './errors/data-folder-in-use-error.js';
export { StorePostgresError } from './errors/store-postgres-error.js';
export {
  type FromPgOptions,
  fromPg,
  type PgClientLike,
  type PgPoolLike,
  type PgQueryConfig,
} from './executor/from-pg.js';
export { fromPglite, type PgliteLike, type PgliteQueryableLike } from './executor/from-pglite.js';
export type { SqlExecutor, SqlQueryable, SqlResult, SqlTransaction } from './executor/sql-executor.js';
export type { SqlLedgerOptions } from './ledger/ledger-options.js';
export type { SqlEventLedger } from './ledger/sql-event-ledger.js';
export type { MigrateResult } from './schema/migrate.js';
export { LATEST_VERSION as SCHEMA_VERSION } from './schema/migrations.js';
export type { TableNameOptions, TableNames } from './schema/table-names.js';
export type { SqlEntitlementStore } from './store/sql-entitlement-store.js';
