import type { PgClientLike, PgPoolLike, PgQueryConfig } from './from-pg.js';

interface OwnedPool extends PgPoolLike {
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

type PoolConstructor = new (config: {
  connectionString: string;
  max?: number;
  connectionTimeoutMillis?: number;
}) => OwnedPool;

/**
 * How long a query waits for a connection: pg's default is forever, which would hold a webhook
 * until the handler's own timeout while the database is unreachable.
 */
const CONNECTION_TIMEOUT_MS = 5_000;

/**
 * A pg Pool made on first use, from `pg` imported then: the package never loads `pg` for an app
 * that brings its own Pool or uses PGlite, and the factory stays synchronous.
 */
export function lazyPgPool(connectionString: string, max: number | undefined) {
  let made: Promise<OwnedPool> | undefined;
  let closed = false;
  const pool = () => {
    if (closed) return Promise.reject(new Error('postgresStore: used after close().'));
    made ??= import('pg').then((module) => {
      const loaded = module as unknown as { Pool?: PoolConstructor; default?: { Pool?: PoolConstructor } };
      const Pool = loaded.Pool ?? loaded.default?.Pool;
      if (Pool === undefined) throw new Error('postgresStore: the pg package has no Pool export.');
      const created = new Pool({
        connectionString,
        connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
        ...(max === undefined ? {} : { max }),
      });
      // An idle connection that dies (a database restart) is reported here; without a listener
      // it would crash the process. The pool replaces it, and the next query says what failed.
      created.on('error', () => {});
      return created;
    });
    return made;
  };
  const lazy: PgPoolLike = {
    // Either of pg's two forms, passed on as given.
    query: (async (query: string | PgQueryConfig, values?: unknown[]) =>
      (await pool()).query(query as string, values)) as PgPoolLike['query'],
    connect: async (): Promise<PgClientLike> => (await pool()).connect(),
  };
  return {
    pool: lazy,
    /** Ends the pool if it was ever made. */
    async end() {
      if (closed) return;
      closed = true;
      const created = await made?.catch(() => undefined);
      await created?.end();
    },
  };
}
