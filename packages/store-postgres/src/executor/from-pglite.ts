import type { SqlExecutor, SqlQueryable, SqlResult } from './sql-executor.js';

/** The part of a PGlite instance (or its transaction) that runs a statement. */
export interface PgliteQueryableLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The part of a PGlite instance the adapter uses: `new PGlite(dataDir)` or `await PGlite.create()` fits. */
export interface PgliteLike extends PgliteQueryableLike {
  transaction<T>(work: (tx: PgliteQueryableLike) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly closed?: boolean;
}

/**
 * A SqlExecutor over PGlite, PostgreSQL in WebAssembly inside the process: one connection, so
 * PGlite runs one transaction at a time and the SQL's row locks are never contended.
 *
 * @example
 * const executor = fromPglite(new PGlite('./.data/dcbkit'));
 */
export function fromPglite(db: PgliteLike): SqlExecutor {
  if (typeof db?.transaction !== 'function' || typeof db.query !== 'function') {
    throw new TypeError("fromPglite: pass a PGlite instance (new PGlite('./data-dir')).");
  }
  const adapt = (queryable: PgliteQueryableLike): SqlQueryable => ({
    query: <Row>(text: string, params: readonly unknown[] = []) =>
      queryable.query(text, [...params]) as Promise<SqlResult<Row>>,
  });
  return {
    ...adapt(db),
    transaction: <T>(work: (tx: SqlQueryable) => Promise<T>) => db.transaction((tx) => work(adapt(tx))),
  };
}
