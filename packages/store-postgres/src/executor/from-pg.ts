import type { SqlExecutor, SqlQueryable, SqlResult } from './sql-executor.js';
import { statementName } from './statement-names.js';

/** A query as pg's config object: with `name`, pg prepares it once per connection. */
export interface PgQueryConfig {
  name?: string;
  text: string;
  values?: unknown[];
}

/** The part of a `pg` PoolClient the adapter uses (typed here so that PGlite users need no @types/pg). */
export interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  query(config: PgQueryConfig): Promise<{ rows: unknown[] }>;
  release(error?: Error | boolean): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/** The part of a `pg` Pool the adapter uses: a `new pg.Pool(...)` fits. */
export interface PgPoolLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  query(config: PgQueryConfig): Promise<{ rows: unknown[] }>;
  connect(): Promise<PgClientLike>;
}

export interface FromPgOptions {
  /**
   * Run the store's statements as named prepared statements (default true): PostgreSQL parses and
   * plans each once per connection instead of on every call, which more than doubles the events a
   * connection applies per second (bench/postgres). Set false behind a pooler that does not keep
   * prepared statements across transactions (PgBouncer in transaction mode before 1.21).
   */
  prepare?: boolean;
}

/** A statement with parameters, named when `prepare` (statements without parameters are BEGIN, COMMIT…). */
function queryOf(prepare: boolean, text: string, params: readonly unknown[]): PgQueryConfig {
  const name = prepare && params.length > 0 ? statementName(text) : undefined;
  return name === undefined ? { text, values: [...params] } : { name, text, values: [...params] };
}

/**
 * A SqlExecutor over a `pg` Pool. Single statements go through `pool.query`; a transaction checks
 * out one client, and a client whose connection failed is destroyed rather than returned to the
 * pool, so the next transaction gets a healthy connection. Statements run prepared (see `prepare`).
 *
 * @example
 * const executor = fromPg(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 */
export function fromPg(pool: PgPoolLike, options: FromPgOptions = {}): SqlExecutor {
  const prepare = options.prepare ?? true;
  if (typeof pool?.connect !== 'function' || typeof pool.query !== 'function') {
    throw new TypeError('fromPg: pass a pg Pool (new pg.Pool({ connectionString })).');
  }
  return {
    query: <Row>(text: string, params: readonly unknown[] = []) =>
      pool.query(queryOf(prepare, text, params)) as Promise<SqlResult<Row>>,
    async transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // A connection that dies while the client is checked out but idle emits 'error' on the
      // client; without a listener that would crash the process. Keep it and fail the transaction.
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken = error;
      };
      client.on('error', onError);
      // BEGIN goes out and the work starts at once, so that what the work computes before its
      // first statement overlaps BEGIN's round trip. Statements sent before BEGIN is answered wait
      // for it, in order: none ever runs outside the transaction.
      const begun = client.query('BEGIN');
      let inTransaction = false;
      begun.then(
        () => {
          inTransaction = true;
        },
        () => {},
      );
      const run = <Row>(text: string, params: readonly unknown[]) =>
        broken
          ? Promise.reject(broken)
          : (client.query(queryOf(prepare, text, params)) as Promise<SqlResult<Row>>);
      const tx: SqlQueryable = {
        query: <Row>(text: string, params: readonly unknown[] = []) =>
          inTransaction ? run<Row>(text, params) : begun.then(() => run<Row>(text, params)),
      };
      try {
        const result = await work(tx);
        await begun;
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // When the connection is gone the server already rolled back; a failed ROLLBACK says so.
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken ??= rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        throw error;
      } finally {
        client.removeListener('error', onError);
        client.release(broken ?? false);
      }
    },
  };
}
