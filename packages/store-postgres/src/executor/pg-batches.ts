import type { SqlResult } from './sql-executor.js';

/** A query as pg's config object: with `name`, pg prepares it once per connection. */
export interface PgQueryConfig {
  name?: string;
  text: string;
  values?: unknown[];
}

/** The protocol messages of pg's Connection that a batch writes (pg 8.11 to 8.23 alike). */
interface PgConnection {
  parsedStatements: Record<string, string | undefined>;
  stream: { cork?(): void; uncork?(): void };
  parse(message: { text: string; name: string; types: unknown[] }): void;
  bind(message: { portal: string; statement: string; values: unknown[] }): void;
  execute(message: { portal: string; rows: number }): void;
  sync(): void;
}

/** A checked-out pg Client, as far as batches look at it. */
export interface PgBatchClient {
  connection?: Partial<PgConnection>;
  pipeline?: boolean;
  query(query: object): unknown;
}

interface PgQuery {
  portal: string;
  submit(connection: PgConnection): Error | null;
  handleCommandComplete(message: { text?: string }, connection: PgConnection): void;
  handleReadyForQuery(connection: PgConnection): void;
  handleError(error: Error, connection: PgConnection): void;
  _getRows(connection: PgConnection): void;
}

type QueryClass = new (config: PgQueryConfig, values: undefined, callback: QueryCallback) => PgQuery;
type QueryCallback = (error: Error | null, result?: SqlResult<unknown>) => void;

/** Sends a statement without parameters, unnamed, into the batch being written (no Sync). */
function writeUnnamed(connection: PgConnection, text: string): void {
  connection.parse({ text, name: '', types: [] });
  connection.bind({ portal: '', statement: '', values: [] });
  connection.execute({ portal: '', rows: 0 });
}

/**
 * Two statements of a transaction in one round trip instead of two: `BEGIN` with the first
 * statement, and the last statement with `COMMIT`. Each batch is written behind a single Sync, so
 * PostgreSQL skips the rest of the batch when a part fails: a statement never runs when its
 * `BEGIN` failed, and `COMMIT` never runs when the statement before it failed. (pg's own
 * `pipeline` mode gives every query its own Sync, which would run the statement outside a
 * transaction when `BEGIN` failed; and a pool the app owns cannot be switched to it.)
 *
 * Built on pg's Query class and Connection messages, the way pg-cursor is: neither is a promise of
 * pg's peer range, so the executor uses batches only once a self-check on a real connection found
 * them behaving (pg-batch-check.ts), and otherwise sends the statements one by one.
 */
export function pgBatches(Query: QueryClass) {
  /** BEGIN, then the statement: BEGIN's CommandComplete is not the statement's result. */
  class BeginThen extends Query {
    private begun = false;
    // Query.submit refuses only a query without text, a name prepared with another text, or
    // values that are not an array: `batchable` and the executor's configs rule all three out, so
    // BEGIN is never left written without its statement and Sync.
    override submit(connection: PgConnection): Error | null {
      connection.stream.cork?.();
      try {
        writeUnnamed(connection, 'BEGIN');
        return super.submit(connection);
      } finally {
        connection.stream.uncork?.();
      }
    }
    override handleCommandComplete(message: { text?: string }, connection: PgConnection): void {
      if (this.begun) super.handleCommandComplete(message, connection);
      else this.begun = true;
    }
  }

  /** The statement, then COMMIT, before the Sync; resolves only when COMMIT committed. */
  class ThenCommit extends Query {
    private statementAnswered = false;
    private committed = false;
    // Called by prepare() to execute the statement and end the batch: COMMIT goes in between.
    override _getRows(connection: PgConnection): void {
      connection.execute({ portal: this.portal, rows: 0 });
      writeUnnamed(connection, 'COMMIT');
      connection.sync();
    }
    override submit(connection: PgConnection): Error | null {
      connection.stream.cork?.();
      try {
        return super.submit(connection);
      } finally {
        connection.stream.uncork?.();
      }
    }
    override handleCommandComplete(message: { text?: string }, connection: PgConnection): void {
      if (!this.statementAnswered) {
        this.statementAnswered = true;
        super.handleCommandComplete(message, connection);
      }
      // COMMIT in a transaction that had failed answers ROLLBACK, without an error.
      else this.committed = message.text === 'COMMIT';
    }
    override handleReadyForQuery(connection: PgConnection): void {
      if (this.committed) super.handleReadyForQuery(connection);
      else this.handleError(new Error('the transaction was rolled back at COMMIT'), connection);
    }
  }

  const send = <Row>(Kind: QueryClass, client: PgBatchClient, config: PgQueryConfig) =>
    new Promise<SqlResult<Row>>((resolve, reject) => {
      client.query(
        new Kind(config, undefined, (error, result) =>
          error ? reject(error) : resolve(result as unknown as SqlResult<Row>),
        ),
      );
    });

  return {
    beginThen: <Row>(client: PgBatchClient, config: PgQueryConfig) =>
      send<Row>(BeginThen as unknown as QueryClass, client, config),
    thenCommit: <Row>(client: PgBatchClient, config: PgQueryConfig) =>
      send<Row>(ThenCommit as unknown as QueryClass, client, config),
  };
}

export type PgBatches = ReturnType<typeof pgBatches>;

/**
 * Whether this client can take a batch: pg's own Client, not in pipeline mode. A BEGIN batch
 * also needs its statement unnamed or already prepared on the connection: pg marks a named
 * statement prepared at the batch's first ParseComplete, which is BEGIN's, so a statement whose
 * own Parse then failed would be taken for prepared.
 */
export function batchable(client: PgBatchClient, config?: PgQueryConfig): boolean {
  const connection = client.connection;
  if (client.pipeline === true || typeof connection?.parse !== 'function') return false;
  if (typeof connection.parsedStatements !== 'object' || connection.parsedStatements === null) return false;
  return config?.name === undefined || connection.parsedStatements[config.name] === config.text;
}

const made = new WeakMap<QueryClass, PgBatches>();

/**
 * The batches of this client's own pg: built on the Query class its Client carries
 * (`Client.Query`, as pg's index exports it), so that a pool made with another copy of pg than
 * the one this package would import still gets batches of its own version. Undefined when the
 * client cannot take a batch (`batchable`) or carries no Query class: the executor then sends one
 * statement a round trip.
 */
export function batchesOf(client: PgBatchClient): PgBatches | undefined {
  const Query = (client.constructor as { Query?: unknown } | undefined)?.Query;
  if (typeof Query !== 'function' || !batchable(client)) return undefined;
  const known = made.get(Query as QueryClass);
  if (known !== undefined) return known;
  const batches = pgBatches(Query as QueryClass);
  made.set(Query as QueryClass, batches);
  return batches;
}
