import { DcbError } from '@dcbkit/core';

/** Who holds a PGlite data folder, as its lock file says. */
export interface FolderHolder {
  readonly pid: number;
  readonly host: string;
  /** When it opened the folder (ISO 8601). */
  readonly since: string;
}

/**
 * A PGlite data folder is open in another process (or another store of this one): PGlite is one
 * process per folder, and two writers lose each other's acknowledged writes. `details` names the
 * folder and its holder. Stop the other process, or give each its own folder (or use PostgreSQL
 * for several instances).
 */
export class DataFolderInUseError extends DcbError<'data_folder_in_use'> {
  static override readonly kind: string = 'DataFolderInUseError';
  override readonly name: string = 'DataFolderInUseError';

  constructor(folder: string, holder: FolderHolder | undefined) {
    const who =
      holder === undefined
        ? 'another process'
        : `process ${holder.pid} on ${holder.host} (since ${holder.since})`;
    super(
      'data_folder_in_use',
      `pgliteStore: the data folder ${folder} is open in ${who}. PGlite is one process per folder: stop it, give this process its own dataDir, or use postgresStore for several instances.`,
      { details: { folder, holder } },
    );
  }
}
