import { type OptionNames, refuseUnknownOptions } from '@dcbkit/core/web';
import { StorePostgresError } from '../errors/store-postgres-error.js';
import { fromPg, type PgPoolLike } from '../executor/from-pg.js';
import { lazyPgPool } from '../executor/lazy-pg-pool.js';
import { createSqlStore, type SqlStore, type SqlStoreOptions } from './create-sql-store.js';

export interface PostgresStoreOptions extends SqlStoreOptions {
  /**
   * Your `pg` Pool: you own it (size, SSL, timeouts), you end it at shutdown, and you give it an
   * 'error' listener (pg requires one). Or leave it out and pass `connectionString`.
   */
  pool?: PgPoolLike;
  /** Without `pool`: the store makes its own pg Pool on this URL on first use; `close()` ends it. */
  connectionString?: string;
  /** The size of the store's own pool (with `connectionString`). Default pg's, 10. */
  maxConnections?: number;
  /**
   * Run the statements as named prepared statements (default true; see `fromPg`). Set false
   * behind PgBouncer in transaction mode before 1.21.
   */
  prepareStatements?: boolean;
}

/** Every option postgresStore takes: the compiler holds this list to PostgresStoreOptions. */
const POSTGRES_STORE_OPTIONS: OptionNames<PostgresStoreOptions> = {
  pool: true,
  connectionString: true,
  maxConnections: true,
  prepareStatements: true,
  schema: true,
  tablePrefix: true,
  leaseMs: true,
  retentionMs: true,
  durableLedger: true,
};

/**
 * Entitlements and the event ledger in PostgreSQL, shared by every instance of your app: each
 * webhook event has exactly one effect even when copies reach several instances at once. Run
 * `migrate()` in your deploy, or at boot: it is safe from several instances at once.
 *
 * @example
 * const dcbStore = postgresStore({ connectionString: process.env.DATABASE_URL });
 * await dcbStore.migrate();
 * const handler = createWebhookHandler({ secrets, store: dcbStore.store, ledger: dcbStore.ledger, offers });
 * // at shutdown
 * await dcbStore.close();
 */
export function postgresStore(options: PostgresStoreOptions): SqlStore {
  if (typeof options === 'object' && options !== null)
    refuseUnknownOptions('postgresStore', options, POSTGRES_STORE_OPTIONS);
  const { pool, connectionString, maxConnections, prepareStatements, ...rest } =
    options ?? ({} as PostgresStoreOptions);
  const executorOptions = prepareStatements === undefined ? {} : { prepare: prepareStatements };
  if (pool !== undefined) {
    if (connectionString !== undefined) {
      throw new StorePostgresError(
        'postgresStore',
        'connectionString',
        'goes without pool: pass one or the other.',
      );
    }
    return createSqlStore(fromPg(pool, executorOptions), rest);
  }
  if (typeof connectionString !== 'string' || connectionString === '') {
    throw new StorePostgresError('postgresStore', 'pool', 'or connectionString is required.');
  }
  if (maxConnections !== undefined && !(Number.isSafeInteger(maxConnections) && maxConnections > 0)) {
    throw new StorePostgresError('postgresStore', 'maxConnections', 'must be a whole number > 0.');
  }
  const owned = lazyPgPool(connectionString, maxConnections);
  return { ...createSqlStore(fromPg(owned.pool, executorOptions), rest), close: owned.end };
}
