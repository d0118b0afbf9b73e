import { createRequire } from 'node:module';
import pgNewest from 'pg';
import pgOldest from 'pg-oldest';

const require = createRequire(import.meta.url);

export type PgModule = typeof pgNewest;

export interface PgVersion {
  /** `pg 8.11.0`: how the suites name it. */
  label: string;
  /** The module name a child process imports it by (instances.ts). */
  module: 'pg' | 'pg-oldest';
  pg: PgModule;
}

const versionOf = (name: string): string => (require(`${name}/package.json`) as { version: string }).version;

/**
 * The oldest and the newest pg of the peer range (`pg: ^8.11.0`): `pg-oldest` is pg 8.11.0 under
 * its own name, `pg` the newest 8.x the lockfile holds. The exactly-once suites run on both, so
 * that the range promises only versions the store was run on.
 */
export const PG_VERSIONS: readonly PgVersion[] = [
  { label: `pg ${versionOf('pg-oldest')}`, module: 'pg-oldest', pg: pgOldest },
  { label: `pg ${versionOf('pg')}`, module: 'pg', pg: pgNewest },
];
