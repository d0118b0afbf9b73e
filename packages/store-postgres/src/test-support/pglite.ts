import { PGlite } from '@electric-sql/pglite';

/**
 * PGlite takes seconds to start (it compiles PostgreSQL's WebAssembly): a test file opens one and
 * gives each test a schema of its own in it.
 */
export async function openPglite(dataDir?: string): Promise<PGlite> {
  return dataDir === undefined ? PGlite.create() : PGlite.create(dataDir);
}
