import { createHash } from 'node:crypto';
import type { SqlExecutor } from '../executor/sql-executor.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import type { TableNames } from './table-names.js';

export interface MigrateResult {
  /** The versions this call applied, in order; empty when the schema was already up to date. */
  applied: number[];
  /** The schema's version afterwards. */
  version: number;
}

/**
 * The advisory lock of a schema: instances migrating it wait for each other (two prefixes in one
 * schema too, which keeps their CREATE SCHEMA from racing); other schemas migrate independently.
 */
function lockId(names: TableNames): string {
  const digest = createHash('sha256').update(`dcbkit-store-postgres:${names.schema}`).digest();
  return digest.readBigInt64BE(0).toString();
}

/**
 * Applies the pending migrations in one transaction under a transaction-level advisory lock: safe
 * to run from every instance at boot at once (the others wait, then find nothing to do), and
 * all-or-nothing (a failed step leaves the schema as it was). Idempotent.
 */
export async function migrate(
  executor: SqlExecutor,
  names: TableNames,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrateResult> {
  return executor.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockId(names)]);
    // Looked up first: CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege on the database even
    // when the schema exists, which an application role often lacks.
    const schema = await tx.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [names.schema]);
    if (schema.rows.length === 0) await tx.query(`CREATE SCHEMA ${names.quotedSchema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${names.migrations} (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    const { rows } = await tx.query<{ version: number }>(`SELECT version FROM ${names.migrations}`);
    const done = new Set(rows.map((row) => Number(row.version)));
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.statements(names)) await tx.query(statement);
      await tx.query(`INSERT INTO ${names.migrations} (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
      done.add(migration.version);
    }
    return { applied, version: Math.max(0, ...done) };
  });
}
