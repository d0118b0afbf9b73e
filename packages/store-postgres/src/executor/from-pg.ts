import { type CheckedClient, settledBatches, verifiedBatches } from './pg-batch-check.js';
import { batchable, type PgBatchClient, type PgBatches, type PgQueryConfig } from './pg-batches.js';
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
 * One transaction on one checked-out client. Statements wait for BEGIN's answer, in order, so
 * that none ever runs outside the transaction. With batches, BEGIN travels with the first
 * statement and COMMIT with `commitWith`'s; without them, BEGIN goes out at once and the work
 * starts beside it, so that what the work computes before its first statement overlaps BEGIN's
 * round trip.
 */
class PgTransaction {
  /** Settles when BEGIN is answered. Undefined while no statement was sent. */
  private begun: Promise<unknown> | undefined;
  private inTransaction = false;
  private committed = false;
  /** Set when the connection failed: every later statement rejects with it, and the client is destroyed. */
  broken: Error | undefined;
  readonly tx: SqlTransaction = {
    query: (text, params) => this.query(text, params),
    commitWith: (text, params) => this.commitWith(text, params),
  };

  constructor(
    private readonly client: PgClientLike,
    private readonly batch: PgBatches | undefined,
    private readonly prepare: boolean,
  ) {
    if (batch === undefined) this.begin(client.query('BEGIN'));
  }

  private begin<Sent>(sent: Promise<Sent>): Promise<Sent> {
    this.begun = sent;
    sent.then(
      () => {
        this.inTransaction = true;
      },
      () => {},
    );
    return sent;
  }

  private run<Row>(config: PgQueryConfig): Promise<SqlResult<Row>> {
    return this.broken ? Promise.reject(this.broken) : (this.client.query(config) as Promise<SqlResult<Row>>);
  }

  /** After BEGIN's answer (at once when it is in). */
  private inside<Row>(send: () => Promise<SqlResult<Row>>): Promise<SqlResult<Row>> {
    return this.inTransaction || this.begun === undefined ? send() : this.begun.then(send);
  }

  /** The first statement, with BEGIN in one batch where the connection takes one. */
  private first<Row>(config: PgQueryConfig): Promise<SqlResult<Row>> {
    const client = this.client as unknown as PgBatchClient;
    return this.begin(
      this.batch !== undefined && batchable(client, config)
        ? this.batch.beginThen<Row>(client, config)
        : this.client.query('BEGIN').then(() => this.run<Row>(config)),
    );
  }

  query<Row>(text: string, params: readonly unknown[] = []): Promise<SqlResult<Row>> {
    if (this.committed) return afterCommit();
    const config = queryOf(this.prepare, text, params);
    return this.begun === undefined ? this.first<Row>(config) : this.inside(() => this.run<Row>(config));
  }

  async commitWith<Row>(text: string, params: readonly unknown[] = []): Promise<SqlResult<Row>> {
    if (this.committed) return afterCommit();
    const config = queryOf(this.prepare, text, params);
    const result = await this.inside(() => {
      // No statement before it: the statement is a transaction of its own.
      if (this.begun === undefined) return this.run<Row>(config);
      // pg sends a statement without values as a simple query, which a batch cannot extend.
      if (this.batch !== undefined && params.length > 0 && !this.broken)
        return this.batch.thenCommit<Row>(this.client as unknown as PgBatchClient, config);
      return this.run<Row>(config).then(async (answer) => {
        await this.client.query('COMMIT');
        return answer;
      });
    });
    this.committed = true;
    return result;
  }

  /** Commits what `commitWith` did not. */
  async finish(): Promise<void> {
    if (this.begun === undefined || this.committed) return;
    await this.begun;
    await this.client.query('COMMIT');
  }

  /** When the connection is gone the server already rolled back; a failed ROLLBACK says so. */
  async rollBack(): Promise<void> {
    if (this.begun === undefined || this.committed) return;
    await this.client.query('ROLLBACK').catch((rollbackError: unknown) => {
      this.broken ??= rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
  }
}

const afterCommit = () => Promise.reject(new Error('fromPg: a statement after commitWith.'));

/** A client for a transaction, and the batches it may use (checked first on a new pg: pg-batch-check.ts). */
async function connectForTransaction(
  pool: PgPoolLike,
): Promise<{ client: PgClientLike; batch: PgBatches | undefined }> {
  const client = await pool.connect();
  const settled = settledBatches(client as unknown as CheckedClient);
  if (settled !== undefined) return { client, batch: settled || undefined };
  // A connection that dies between the check's statements emits 'error' on the client: kept from
  // crashing the process; the statement after it fails, and the check with it.
  const ignore = () => {};
  client.on('error', ignore);
  const { batches, replace } = await verifiedBatches(client as unknown as CheckedClient)
    .catch(() => ({ batches: undefined, replace: true }))
    .finally(() => client.removeListener('error', ignore));
  if (!replace) return { client, batch: batches };
  // The check did not pass on it: its state is not known, so it is destroyed, and another serves.
  client.release(new Error('fromPg: the batch check did not pass on this connection.'));
  return { client: await pool.connect(), batch: undefined };
}

/**
 * A SqlExecutor over a `pg` Pool. Single statements go through `pool.query`; a transaction checks
 * out one client, and a client whose connection failed is destroyed rather than returned to the
 * pool, so the next transaction gets a healthy connection. Statements run prepared (see `prepare`).
 * On pg's own clients, once a check on a real connection found pg's batches behaving
 * (pg-batch-check.ts), `BEGIN` goes with the transaction's first statement and `COMMIT` with the
 * statement given to `commitWith`, a round trip saved on each (pg-batches.ts); otherwise each
 * goes on its own.
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
    async transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
      const { client, batch } = await connectForTransaction(pool);
      const transaction = new PgTransaction(client, batch, prepare);
      // A connection that dies while the client is checked out but idle emits 'error' on the
      // client; without a listener that would crash the process. Keep it and fail the transaction.
      const onError = (error: Error) => {
        transaction.broken = error;
      };
      client.on('error', onError);
      try {
        const result = await work(transaction.tx);
        await transaction.finish();
        return result;
      } catch (error) {
        await transaction.rollBack();
        throw error;
      } finally {
        client.removeListener('error', onError);
        client.release(transaction.broken ?? false);
      }
    },
  };
}
