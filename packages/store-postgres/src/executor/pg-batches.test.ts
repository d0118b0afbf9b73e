import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, uniqueSchema } from '../test-support/database.js';
import { PG_VERSIONS, type PgModule } from '../test-support/pg-versions.js';
import { fromPg } from './from-pg.js';
import { type CheckedClient, checkBatches } from './pg-batch-check.js';
import { batchable, batchesOf, type PgBatchClient, type PgBatches } from './pg-batches.js';

/** Counts the answers a client's statements end with: one ReadyForQuery per round trip. */
function countRoundTrips(client: pg.PoolClient) {
  const counter = { roundTrips: 0 };
  (client as unknown as { connection: NodeJS.EventEmitter }).connection.on('readyForQuery', () => {
    counter.roundTrips++;
  });
  return counter;
}

/**
 * A pg whose Query class answers CommandComplete through an own property, as a later pg might: the
 * batches' overrides never run, so BEGIN's answer is taken for the statement's.
 */
function driftedPool(pg: PgModule, max: number): pg.Pool {
  const Base = pg.Query as unknown as new (...args: unknown[]) => { handleCommandComplete: unknown };
  class DriftedQuery extends Base {
    constructor(...args: unknown[]) {
      super(...args);
      const own = Base.prototype.handleCommandComplete as (...args: unknown[]) => void;
      this.handleCommandComplete = (...args: unknown[]) => own.apply(this, args);
    }
  }
  class DriftedClient extends pg.Client {
    static Query = DriftedQuery;
  }
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max, Client: DriftedClient } as pg.PoolConfig);
  pool.on('error', () => {});
  return pool;
}

for (const { label, pg } of PG_VERSIONS)
  describe.skipIf(!DATABASE_URL)(`pg batches, on PostgreSQL, ${label}`, () => {
    const schema = uniqueSchema('batches');
    const table = `"${schema}".rows`;
    let pool: pg.Pool;
    let batches: PgBatches;
    const count = async () => Number((await pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);

    beforeAll(async () => {
      pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4 });
      await pool.query(`CREATE SCHEMA "${schema}"; CREATE TABLE ${table} (id int PRIMARY KEY)`);
      const client = await pool.connect();
      batches = batchesOf(client as unknown as PgBatchClient) as PgBatches;
      client.release();
    });
    afterAll(async () => {
      await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
      await pool.end();
    });

    it('sends BEGIN with a statement in one round trip, and answers the statement', async () => {
      const client = await pool.connect();
      try {
        const counter = countRoundTrips(client);
        const insert = { text: `INSERT INTO ${table} VALUES ($1) RETURNING id`, values: [1] };
        expect(batchable(client as unknown as PgBatchClient, insert)).toBe(true);
        const { rows } = await batches.beginThen(client as unknown as PgBatchClient, insert);
        expect(rows).toEqual([{ id: 1 }]);
        expect(counter.roundTrips).toBe(1);
        // The insert ran inside the transaction BEGIN opened: a rollback takes it back.
        await client.query('ROLLBACK');
        expect(await count()).toBe(0);
      } finally {
        client.release();
      }
    });

    it('commits with the last statement in one round trip', async () => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`INSERT INTO ${table} VALUES (2)`);
        const counter = countRoundTrips(client);
        const last = { text: `INSERT INTO ${table} VALUES ($1) RETURNING id`, values: [3] };
        const { rows } = await batches.thenCommit(client as unknown as PgBatchClient, last);
        expect(rows).toEqual([{ id: 3 }]);
        expect(counter.roundTrips).toBe(1);
        expect(await count()).toBe(2);
      } finally {
        await pool.query(`DELETE FROM ${table}`);
        client.release();
      }
    });

    it('does not commit when the last statement fails: COMMIT is skipped, the transaction stays failed', async () => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`INSERT INTO ${table} VALUES (4)`);
        const failing = { text: `INSERT INTO ${table} VALUES ($1::int / 0)`, values: [5] };
        await expect(batches.thenCommit(client as unknown as PgBatchClient, failing)).rejects.toThrow(
          'division by zero',
        );
        await expect(client.query('SELECT 1')).rejects.toThrow('current transaction is aborted');
        await client.query('ROLLBACK');
        expect(await count()).toBe(0);
      } finally {
        client.release();
      }
    });

    it('rejects, and commits nothing, when the transaction had failed before its last statement', async () => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`INSERT INTO ${table} VALUES (6)`);
        await client.query('SELECT 1 / 0').catch(() => {});
        const last = { text: `INSERT INTO ${table} VALUES ($1)`, values: [7] };
        await expect(batches.thenCommit(client as unknown as PgBatchClient, last)).rejects.toThrow();
        await client.query('ROLLBACK');
        expect(await count()).toBe(0);
      } finally {
        client.release();
      }
    });

    it('batches BEGIN only with a statement unnamed or already prepared on the connection', async () => {
      const client = (await pool.connect()) as unknown as PgBatchClient & pg.PoolClient;
      try {
        const named = { name: 'batches_select', text: 'SELECT $1::int AS n', values: [1] };
        expect(batchable(client, named)).toBe(false);
        await client.query(named);
        expect(batchable(client, named)).toBe(true);
        expect(batchable(client, { text: 'SELECT $1::int', values: [1] })).toBe(true);
        expect(batchable({ query() {} })).toBe(false);
        expect(batchable({ ...client, pipeline: true, query() {} })).toBe(false);
      } finally {
        client.release();
      }
    });

    it('fromPg: a transaction of two statements costs two round trips, and a failed last one leaves nothing', async () => {
      const single = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
      const executor = fromPg(single);
      const client = await single.connect();
      const counter = countRoundTrips(client);
      client.release();
      try {
        const insert = `INSERT INTO ${table} VALUES ($1)`;
        // The first use prepares the statement, with BEGIN on its own; from then on, two.
        const twoStatements = (first: number, last: string, id: number) =>
          executor.transaction(async (tx) => {
            await tx.query(insert, [first]);
            await tx.commitWith?.(last, [id]);
          });
        await twoStatements(8, insert, 9);
        counter.roundTrips = 0;
        await twoStatements(10, insert, 11);
        expect(counter.roundTrips).toBe(2);
        expect(await count()).toBe(4);
        await expect(twoStatements(12, `INSERT INTO ${table} VALUES ($1::int / 0)`, 13)).rejects.toThrow(
          'division by zero',
        );
        expect(await count()).toBe(4);
        // The connection went back to the pool healthy, out of any transaction.
        await expect(single.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
      } finally {
        await pool.query(`DELETE FROM ${table}`);
        await single.end();
      }
    });
    it('passes the self-check: each batch answers, commits and fails as the executor relies on', async () => {
      const client = await pool.connect();
      try {
        expect(await checkBatches(client as unknown as CheckedClient, batches)).toBe('behaves');
        // The client is left idle, out of any transaction.
        await expect(client.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
      } finally {
        client.release();
      }
    });

    it('fails the self-check on a batch that does not behave, and the executor sends one statement a round trip', async () => {
      const drifted = driftedPool(pg, 1);
      try {
        const client = await drifted.connect();
        const driftedBatches = batchesOf(client as unknown as PgBatchClient) as PgBatches;
        expect(await checkBatches(client as unknown as CheckedClient, driftedBatches)).toBe('differs');
        client.release(true);
        const executor = fromPg(drifted);
        const insert = `INSERT INTO ${table} VALUES ($1) RETURNING id`;
        const twoStatements = (first: number, last: string, id: number) =>
          executor.transaction(async (tx) => {
            const { rows } = await tx.query(insert, [first]);
            return [rows, (await tx.commitWith?.(last, [id]))?.rows];
          });
        await expect(twoStatements(20, insert, 21)).resolves.toEqual([[{ id: 20 }], [{ id: 21 }]]);
        const counted = await drifted.connect();
        const counter = countRoundTrips(counted);
        counted.release();
        // BEGIN, the two statements and COMMIT, each its own round trip.
        await twoStatements(22, insert, 23);
        expect(counter.roundTrips).toBe(4);
        await expect(twoStatements(24, `INSERT INTO ${table} VALUES ($1::int / 0)`, 25)).rejects.toThrow(
          'division by zero',
        );
        expect(await count()).toBe(4);
      } finally {
        await pool.query(`DELETE FROM ${table}`);
        await drifted.end();
      }
    });
  });
