import { describe, expect, it } from 'vitest';
import { fromPg, type PgClientLike, type PgPoolLike, type PgQueryConfig } from './from-pg.js';

/** A pg client whose BEGIN is answered when the test says; every other statement at once. */
function slowBeginClient() {
  const sent: string[] = [];
  let answerBegin: (error?: Error) => void = () => {};
  const client: PgClientLike = {
    query(statement: string | PgQueryConfig) {
      const text = typeof statement === 'string' ? statement : statement.text;
      sent.push(text);
      if (text === 'BEGIN')
        return new Promise((resolve, reject) => {
          answerBegin = (error) => (error ? reject(error) : resolve({ rows: [] }));
        });
      return Promise.resolve({ rows: [{ text }] });
    },
    release() {},
    on() {},
    removeListener() {},
  } as unknown as PgClientLike;
  const pool: PgPoolLike = {
    query: () => Promise.reject(new Error('not used')),
    connect: async () => client,
  } as unknown as PgPoolLike;
  return { pool, sent, answerBegin: (error?: Error) => answerBegin(error) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('fromPg: the transaction starts its work while BEGIN is on its way', () => {
  it('sends the statements issued before BEGIN is answered after it, in their order', async () => {
    const { pool, sent, answerBegin } = slowBeginClient();
    let started = false;
    const done = fromPg(pool).transaction(async (tx) => {
      started = true;
      const first = tx.query('SELECT $1::int', [1]);
      const second = tx.query('SELECT $1::int + 1', [1]);
      return [await first, await second].map((result) => result.rows.length);
    });
    await tick();
    expect(started).toBe(true);
    expect(sent).toEqual(['BEGIN']);
    answerBegin();
    await expect(done).resolves.toEqual([1, 1]);
    expect(sent).toEqual(['BEGIN', 'SELECT $1::int', 'SELECT $1::int + 1', 'COMMIT']);
  });

  it('runs no statement outside a transaction when BEGIN fails, and rejects with its error', async () => {
    const { pool, sent, answerBegin } = slowBeginClient();
    const done = fromPg(pool).transaction(async (tx) => tx.query('INSERT INTO t VALUES ($1)', [1]));
    await tick();
    answerBegin(new Error('BEGIN failed'));
    await expect(done).rejects.toThrow('BEGIN failed');
    expect(sent).toEqual(['BEGIN', 'ROLLBACK']);
  });

  it('does not commit work that sent no statement when BEGIN fails', async () => {
    const { pool, sent, answerBegin } = slowBeginClient();
    const done = fromPg(pool).transaction(async () => 'nothing to write');
    await tick();
    answerBegin(new Error('BEGIN failed'));
    await expect(done).rejects.toThrow('BEGIN failed');
    expect(sent).not.toContain('COMMIT');
  });
});
