import {
  runHistoryConformance,
  runLedgerConformance,
  runLifecycleConformance,
  runLineConformance,
  runMetricsConformance,
  runOnceConformance,
  runReconcileConformance,
  runStoreConformance,
} from '@dcbkit/core/store';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { SqlStore } from './connect/create-sql-store.js';
import { pgliteStore } from './connect/pglite-store.js';
import { postgresStore } from './connect/postgres-store.js';
import { DATABASE_URL, type TestDatabase, testDatabase, uniqueSchema } from './test-support/database.js';
import { openPglite } from './test-support/pglite.js';

// Core's suites, on both drivers, with the same SQL.

describe.skipIf(!DATABASE_URL)('on PostgreSQL', () => {
  let database: TestDatabase;
  let sqlStore: SqlStore;
  // The same tables, with a lease the suite can wait out.
  let shortLease: SqlStore;
  beforeAll(async () => {
    database = testDatabase('conformance');
    sqlStore = postgresStore({ pool: database.pool, schema: database.schema });
    shortLease = postgresStore({ pool: database.pool, schema: database.schema, leaseMs: 300 });
    await sqlStore.migrate();
  });
  afterAll(() => database?.drop());

  runStoreConformance(() => sqlStore.store, { name: 'postgresStore', describe, it });
  runReconcileConformance(() => sqlStore.store, { name: 'postgresStore', describe, it });
  runHistoryConformance(() => sqlStore.store, { name: 'postgresStore', describe, it });
  runMetricsConformance(() => sqlStore.store, { name: 'postgresStore', describe, it });
  runLifecycleConformance(() => sqlStore.store, { name: 'postgresStore', describe, it });
  runLineConformance(() => sqlStore.store, { name: 'postgresStore', describe, it });
  runOnceConformance(() => sqlStore.store, { name: 'postgresStore', describe, it });
  runLedgerConformance(() => sqlStore.ledger, { name: 'postgresStore', describe, it });
  runLedgerConformance(() => shortLease.ledger, {
    name: 'postgresStore, short lease',
    describe,
    it,
    leaseMs: 300,
  });
});

describe('on PGlite', () => {
  let db: PGlite;
  let sqlStore: SqlStore;
  beforeAll(async () => {
    db = await openPglite();
    sqlStore = await pgliteStore({ db, schema: uniqueSchema('conformance') });
  }, 60_000);
  afterAll(() => db?.close());

  runStoreConformance(() => sqlStore.store, { name: 'pgliteStore', describe, it });
  runReconcileConformance(() => sqlStore.store, { name: 'pgliteStore', describe, it });
  runHistoryConformance(() => sqlStore.store, { name: 'pgliteStore', describe, it });
  runMetricsConformance(() => sqlStore.store, { name: 'pgliteStore', describe, it });
  runLifecycleConformance(() => sqlStore.store, { name: 'pgliteStore', describe, it });
  runLineConformance(() => sqlStore.store, { name: 'pgliteStore', describe, it });
  runOnceConformance(() => sqlStore.store, { name: 'pgliteStore', describe, it });
  runLedgerConformance(() => sqlStore.ledger, { name: 'pgliteStore', describe, it });
});
