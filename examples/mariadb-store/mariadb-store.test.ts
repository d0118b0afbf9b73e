import { randomBytes } from 'node:crypto';
import { runLedgerConformance, runStoreConformance } from '@dcbkit/core/store';
import mysql, { type Pool } from 'mysql2/promise';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTables, mariadbLedger, mariadbStore, tableNamesOf } from './mariadb-store.js';

// The worked example of docs/store-authors.md: a store on another engine, held to core's suites.
// CI sets MARIADB_URL (.ci/run); locally the suites skip without it.
const { MARIADB_URL } = process.env;

describe.skipIf(!MARIADB_URL)('the MariaDB example store', () => {
  let pool: Pool;
  // Tables of their own per run, dropped after.
  const tables = tableNamesOf(`dcbkit_example_${randomBytes(4).toString('hex')}_`);

  beforeAll(async () => {
    pool = mysql.createPool({ uri: MARIADB_URL, connectionLimit: 20 });
    await createTables(pool, tables);
  });
  afterAll(async () => {
    for (const table of Object.values(tables)) await pool?.query(`DROP TABLE IF EXISTS ${table}`);
    await pool?.end();
  });

  runStoreConformance(() => mariadbStore(pool, tables), { name: 'mariadbStore', describe, it });
  runLedgerConformance(() => mariadbLedger(pool, { tables }), { name: 'mariadbLedger', describe, it });
  runLedgerConformance(() => mariadbLedger(pool, { tables, leaseMs: 300 }), {
    name: 'mariadbLedger, short lease',
    describe,
    it,
    leaseMs: 300,
  });
});
