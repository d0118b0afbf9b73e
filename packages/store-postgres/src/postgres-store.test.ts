import { isDcbError } from '@dcbkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlStore } from './connect/create-sql-store.js';
import { pgliteStore } from './connect/pglite-store.js';
import { postgresStore } from './connect/postgres-store.js';
import { DATABASE_URL, uniqueSchema } from './test-support/database.js';

describe('postgresStore and pgliteStore options', () => {
  it.each([
    [{}, 'pool'],
    [{ connectionString: '' }, 'pool'],
    [
      {
        connectionString: 'postgres://127.0.0.1/x',
        pool: { query: async () => ({ rows: [] }), connect: async () => ({}) as never },
      },
      'connectionString',
    ],
    [{ connectionString: 'postgres://127.0.0.1/x', maxConnections: 0 }, 'maxConnections'],
    [{ connectionString: 'postgres://127.0.0.1/x', schema: 'Robert"); DROP TABLE' }, 'schema'],
  ])('postgresStore refuses %j, naming %s', (options, option) => {
    let thrown: unknown;
    try {
      postgresStore(options);
    } catch (error) {
      thrown = error;
    }
    expect(isDcbError(thrown, 'invalid_option')).toBe(true);
    expect(thrown).toMatchObject({ details: { option } });
  });

  it('pgliteStore refuses db and dataDir together', async () => {
    const db = {
      query: async () => ({ rows: [] }),
      transaction: async () => undefined as never,
      close: async () => {},
    };
    await expect(pgliteStore({ db, dataDir: '/tmp/x' })).rejects.toMatchObject({ code: 'invalid_option' });
  });

  it('does not connect before the first query', async () => {
    // Nothing listens on port 9 of loopback: a connection attempt would fail.
    const unused = postgresStore({ connectionString: 'postgres://postgres@127.0.0.1:9/none' });
    await unused.close();
  });
});

describe.skipIf(!DATABASE_URL)('postgresStore with a connection string', () => {
  const schema = uniqueSchema('own_pool');
  let sqlStore: SqlStore;
  // Made here, not at collection: without DATABASE_URL the block is skipped but still collected.
  beforeAll(() => {
    sqlStore = postgresStore({ connectionString: DATABASE_URL as string, schema, maxConnections: 2 });
  });
  afterAll(async () => {
    await sqlStore?.executor.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await sqlStore?.close();
  });

  it('makes its own pool on first use, and close ends it', async () => {
    await sqlStore.migrate();
    expect((await sqlStore.ledger.claim('evt_own_pool')).status).toBe('new');
    const closing = postgresStore({ connectionString: DATABASE_URL as string, schema });
    expect((await closing.ledger.claim('evt_own_pool')).status).toBe('in_progress');
    await closing.close();
    await expect(closing.ledger.claim('evt_own_pool')).rejects.toThrow('used after close()');
    // Closing twice is fine.
    await closing.close();
  });
});
