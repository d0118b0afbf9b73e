import { createHash, randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * A new cluster as PGlite's initdb leaves it, dumped once per machine and PGlite version (its
 * path holds the version): initdb is seconds of CPU in every test file that opens a PGlite in
 * memory, where loading the dump is a fraction of one.
 */
const NEW_CLUSTER_DUMP = join(
  tmpdir(),
  `dcbkit-pglite-new-cluster-${createHash('sha256')
    .update(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
    .digest('hex')
    .slice(0, 16)}.tar`,
);

/**
 * PGlite takes seconds to start (it compiles PostgreSQL's WebAssembly): a test file opens one and
 * gives each test a schema of its own in it. In memory, it starts from the new cluster's dump
 * rather than running initdb again; in `dataDir`, as a shop opens it.
 */
export async function openPglite(dataDir?: string): Promise<PGlite> {
  if (dataDir !== undefined) return PGlite.create(dataDir);
  const dump = await readFile(NEW_CLUSTER_DUMP).catch(() => undefined);
  if (dump !== undefined) return PGlite.create({ loadDataDir: new Blob([dump]) });
  const pglite = await PGlite.create();
  const made = await pglite.dumpDataDir('none');
  // Written aside, then renamed: a file opening a PGlite at the same time reads a whole dump or none.
  const aside = `${NEW_CLUSTER_DUMP}.${randomUUID()}`;
  await writeFile(aside, Buffer.from(await made.arrayBuffer()));
  await rename(aside, NEW_CLUSTER_DUMP);
  return pglite;
}
