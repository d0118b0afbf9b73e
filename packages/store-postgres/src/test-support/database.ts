import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** CI always sets it (the PostgreSQL tests must pass there); locally they skip without it. */
export const DATABASE_URL = process.env.DATABASE_URL;

/** A schema name of its own per test, so that runs and parallel files never see each other's rows. */
export function uniqueSchema(label: string): string {
  return `dcbkit_test_${label}_${randomBytes(5).toString('hex')}`;
}

export interface TestDatabase {
  pool: pg.Pool;
  schema: string;
  /** Drops the schema and ends the pool. */
  drop(): Promise<void>;
}

/**
 * A pool on DATABASE_URL and a fresh schema name (migrate creates it); the pool of `driver`, the
 * newest pg by default (pg-versions.ts has the oldest too).
 */
export function testDatabase(
  label: string,
  poolOptions: pg.PoolConfig = {},
  driver: typeof pg = pg,
): TestDatabase {
  if (!DATABASE_URL) throw new Error('DATABASE_URL is not set');
  const pool = new driver.Pool({ connectionString: DATABASE_URL, max: 10, ...poolOptions });
  // A backend killed by a test must not crash the run through an idle client's 'error'.
  pool.on('error', () => {});
  const schema = uniqueSchema(label);
  return {
    pool,
    schema,
    async drop() {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}
