import type { EntitlementStore } from '@dcbkit/core/store';
import { pgliteStore, postgresStore } from '@dcbkit/store-postgres';
import {
  DATABASE_URL,
  testDatabase,
  uniqueSchema,
} from '../../packages/store-postgres/src/test-support/database.js';
import { openPglite } from '../../packages/store-postgres/src/test-support/pglite.js';

/** Where fresh stores come from: each `fresh()` is empty, and `close()` ends them all. */
export interface StoreSource {
  fresh(): Promise<EntitlementStore>;
  close(): Promise<void>;
}

/** A built-in store the business view is proven on; `skip` without the database it needs. */
export interface StoreUnderTest {
  name: 'memoryStore' | 'pgliteStore' | 'postgresStore';
  skip?: boolean;
  open(): Promise<StoreSource>;
}

export const STORES_UNDER_TEST: readonly StoreUnderTest[] = [
  {
    name: 'memoryStore',
    async open() {
      const { memoryStore } = await import('@dcbkit/core');
      return { fresh: async () => memoryStore(), close: async () => {} };
    },
  },
  {
    name: 'pgliteStore',
    async open() {
      // PGlite takes seconds to start: one database, a schema per store.
      const db = await openPglite();
      return {
        fresh: async () => (await pgliteStore({ db, schema: uniqueSchema('metrics') })).store,
        close: () => db.close(),
      };
    },
  },
  {
    name: 'postgresStore',
    skip: !DATABASE_URL,
    async open() {
      const databases: Array<ReturnType<typeof testDatabase>> = [];
      return {
        async fresh() {
          const database = testDatabase('metrics', { max: 4 });
          databases.push(database);
          const sql = postgresStore({ pool: database.pool, schema: database.schema });
          await sql.migrate();
          return sql.store;
        },
        async close() {
          // One at a time: a bench's thousand stores dropped at once would ask the server for a
          // thousand connections (53300 too many clients).
          for (const database of databases.splice(0)) await database.drop();
        },
      };
    },
  },
];
