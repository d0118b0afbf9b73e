/** What a query answers: its rows, as the driver parsed them (jsonb as objects, text[] as arrays). */
export interface SqlResult<Row> {
  rows: Row[];
}

/** Something that runs one SQL statement with $1-style parameters: a connection or a transaction. */
export interface SqlQueryable {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<Row>>;
}

/** A statement run inside `SqlExecutor.transaction`, and, where the executor has it, its last one. */
export interface SqlTransaction extends SqlQueryable {
  /**
   * Runs the transaction's last statement and commits with it: fromPg sends the statement and
   * COMMIT in one round trip. Rejects, and leaves nothing committed, when either fails. The work
   * must run no statement after it. Optional: an executor without it commits when the work resolves.
   */
  commitWith?<Row = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
  ): Promise<SqlResult<Row>>;
}

/**
 * The only thing the store and the ledger know about the database: run a statement, or run
 * several in one transaction. `fromPg(pool)` and `fromPglite(db)` make one; the SQL is the same
 * for both, so anything that speaks PostgreSQL can have an adapter of a dozen lines.
 */
export interface SqlExecutor extends SqlQueryable {
  /**
   * Runs `work` in one transaction (READ COMMITTED) on one connection: commits when it resolves,
   * rolls back and rejects when it rejects or the connection fails. Nothing is left half-written.
   */
  transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T>;
}
