import {
  batchable,
  loadPgBatches,
  type PgBatchClient,
  type PgBatches,
  type PgQueryConfig,
} from './pg-batches.js';
import type { SqlExecutor, SqlResult, SqlTransaction } from './sql-executor.js';
import { statementName } from './statement-names.js';

export type { PgQueryConfig };

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
  // pg only reads the values: passed as they are, not copied.
  const values = params as unknown[];
  return name === undefined ? { text, values } : { name, text, values };
}

/**
 * A SqlExecutor over a `pg` Pool. Single statements go through `pool.query`; a transaction checks
 * out one client, and a client whose connection failed is destroyed rather than returned to the
 * pool, so the next transaction gets a healthy connection. Statements run prepared (see `prepare`).
 * On pg's own clients, `BEGIN` goes with the transaction's first statement and `COMMIT` with the
 * statement given to `commitWith`, a round trip saved on each (pg-batches.ts).
 *
 * @example
 * const executor = fromPg(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 */
export function fromPg(pool: PgPoolLike, options: FromPgOptions = {}): SqlExecutor {
  const prepare = options.prepare ?? true;
  if (typeof pool?.connect !== 'function' || typeof pool.query !== 'function') {
    throw new TypeError('fromPg: pass a pg Pool (new pg.Pool({ connectionString })).');
  }
  let batches: PgBatches | undefined;
  void loadPgBatches().then((loaded) => {
    batches = loaded;
  });
  return {
    query: <Row>(text: string, params: readonly unknown[] = []) =>
      pool.query(queryOf(prepare, text, params)) as Promise<SqlResult<Row>>,
    async transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // A connection that dies while the client is checked out but idle emits 'error' on the
      // client; without a listener that would crash the process. Keep it and fail the transaction.
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken = error;
      };
      client.on('error', onError);
      const batch = batches !== undefined && batchable(client as PgBatchClient) ? batches : undefined;
      // Settles when BEGIN is answered; until then statements wait for it, in order, so that none
      // ever runs outside the transaction. Undefined while no statement was sent.
      let begun: Promise<unknown> | undefined;
      let inTransaction = false;
      let committed = false;
      const begin = <Sent>(sent: Promise<Sent>): Promise<Sent> => {
        begun = sent;
        sent.then(
          () => {
            inTransaction = true;
          },
          () => {},
        );
        return sent;
      };
      const run = <Row>(config: PgQueryConfig) =>
        broken ? Promise.reject(broken) : (client.query(config) as Promise<SqlResult<Row>>);
      const inside = <Row>(send: () => Promise<SqlResult<Row>>) =>
        inTransaction || begun === undefined ? send() : begun.then(send);
      // With batches, BEGIN travels with the first statement. Without them, it goes out at once
      // and the work starts beside it, so that what the work computes before its first statement
      // overlaps BEGIN's round trip.
      if (batch === undefined) begin(client.query('BEGIN'));
      const first = <Row>(config: PgQueryConfig) =>
        begin(
          batch !== undefined && batchable(client as PgBatchClient, config)
            ? batch.beginThen<Row>(client as PgBatchClient, config)
            : client.query('BEGIN').then(() => run<Row>(config)),
        );
      const afterCommit = () => Promise.reject(new Error('fromPg: a statement after commitWith.'));
      const tx: SqlTransaction = {
        query: <Row>(text: string, params: readonly unknown[] = []) => {
          if (committed) return afterCommit();
          const config = queryOf(prepare, text, params);
          return begun === undefined ? first<Row>(config) : inside(() => run<Row>(config));
        },
        commitWith: async <Row>(text: string, params: readonly unknown[] = []) => {
          if (committed) return afterCommit();
          const config = queryOf(prepare, text, params);
          const result = await inside(() => {
            // No statement before it: the statement is a transaction of its own.
            if (begun === undefined) return run<Row>(config);
            if (batch !== undefined && params.length > 0 && !broken)
              return batch.thenCommit<Row>(client as PgBatchClient, config);
            return run<Row>(config).then(async (answer) => {
              await client.query('COMMIT');
              return answer;
            });
          });
          committed = true;
          return result;
        },
      };
      try {
        const result = await work(tx);
        if (begun !== undefined && !committed) {
          await begun;
          await client.query('COMMIT');
        }
        return result;
      } catch (error) {
        // When the connection is gone the server already rolled back; a failed ROLLBACK says so.
        if (begun !== undefined && !committed)
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
