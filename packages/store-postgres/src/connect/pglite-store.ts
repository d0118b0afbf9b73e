import { type OptionNames, refuseUnknownOptions } from '@dcbkit/core/web';
import { StorePostgresError } from '../errors/store-postgres-error.js';
import { fromPglite, type PgliteLike } from '../executor/from-pglite.js';
import type { MigrateResult } from '../schema/migrate.js';
import { createSqlStore, type SqlStore, type SqlStoreOptions } from './create-sql-store.js';
import { lockDataFolder } from './folder-lock.js';

export interface PgliteStoreOptions extends SqlStoreOptions {
  /** Your PGlite instance; you close it. Or leave it out and pass `dataDir`. */
  db?: PgliteLike;
  /**
   * Without `db`: the folder the store's own PGlite keeps its data in (created when missing);
   * `close()` closes it. One process at a time: a second opener gets a DataFolderInUseError naming
   * the holder; the lock of a process that died (SIGKILL) is taken over. Leave both out for a database in memory, gone at exit (tests).
   */
  dataDir?: string;
  /** Apply pending migrations before resolving. Default true: an embedded database has no deploy step. */
  migrate?: boolean;
}

export interface PgliteStore extends SqlStore {
  /** What the opening migration did (undefined with `migrate: false`). */
  readonly migrated: MigrateResult | undefined;
}

type PgliteModule = { PGlite: { create(dataDir?: string): Promise<PgliteLike> } };

/** Every option pgliteStore takes: the compiler holds this list to PgliteStoreOptions. */
const PGLITE_STORE_OPTIONS: OptionNames<PgliteStoreOptions> = {
  db: true,
  dataDir: true,
  migrate: true,
  schema: true,
  tablePrefix: true,
  leaseMs: true,
  retentionMs: true,
  durableLedger: true,
};

/**
 * Entitlements and the event ledger in PGlite: PostgreSQL compiled to WebAssembly, running in
 * your process over a data folder. The same SQL and migrations as `postgresStore`, for a single
 * instance that must keep its entitlements across restarts, with no database server to run.
 * `@electric-sql/pglite` is loaded only here.
 *
 * @example
 * const dcbStore = await pgliteStore({ dataDir: './.data/dcbkit' });
 * const handler = createWebhookHandler({ secrets, store: dcbStore.store, ledger: dcbStore.ledger, offers });
 * // at shutdown
 * await dcbStore.close();
 */
export async function pgliteStore(options: PgliteStoreOptions = {}): Promise<PgliteStore> {
  if (typeof options === 'object' && options !== null)
    refuseUnknownOptions('pgliteStore', options, PGLITE_STORE_OPTIONS);
  const { db, dataDir, migrate = true, ...rest } = options;
  if (db !== undefined && dataDir !== undefined) {
    throw new StorePostgresError('pgliteStore', 'dataDir', 'goes without db: pass one or the other.');
  }
  let opened: PgliteLike | undefined;
  // One process per data folder: a second opener is refused before PGlite touches it.
  const lock = dataDir === undefined ? undefined : await lockDataFolder(dataDir);
  try {
    if (db === undefined) {
      const { PGlite } = (await import('@electric-sql/pglite')) as unknown as PgliteModule;
      opened = dataDir === undefined ? await PGlite.create() : await PGlite.create(dataDir);
    }
  } catch (error) {
    await lock?.release();
    throw error;
  }
  const database = (db ?? opened) as PgliteLike;
  const close = async () => {
    if (opened !== undefined && !opened.closed) await opened.close();
    await lock?.release();
  };
  const sqlStore = { ...createSqlStore(fromPglite(database), rest), close };
  try {
    const migrated = migrate ? await sqlStore.migrate() : undefined;
    return { ...sqlStore, migrated };
  } catch (error) {
    await close();
    throw error;
  }
}
