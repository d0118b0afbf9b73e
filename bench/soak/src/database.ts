import pg from 'pg';

/** A database of the soak's own on the DATABASE_URL server, so nothing else there is touched. */
export interface SoakDatabase {
  /** The URL the shop instances get as DATABASE_URL. */
  url: string;
  name: string;
  /** Connections to this database now (pg_stat_activity), the soak's own sampler excluded. */
  connections(): Promise<number>;
  /** Terminates one shop backend (pg_terminate_backend); returns its pid, or null when none. */
  terminateOneBackend(pick: (count: number) => number): Promise<number | null>;
  /** Closes the admin connection and drops the database. */
  drop(): Promise<void>;
}

/**
 * Creates `soak_<seed>_<pid>` on the server of `serverUrl` (dropping a leftover of the same name),
 * connected to as the URL's user through its maintenance database (`postgres`).
 */
export async function createSoakDatabase(serverUrl: string, suffix: string): Promise<SoakDatabase> {
  const name = `soak_${suffix}`.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = withDatabase(serverUrl, name);
  const appName = 'dcbkit-soak-admin';
  await admin.query(`set application_name = '${appName}'`);
  return {
    url,
    name,
    async connections() {
      const result = await admin.query<{ count: string }>(
        'select count(*) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      return Number(result.rows[0]?.count ?? 0);
    },
    async terminateOneBackend(pick) {
      const result = await admin.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() order by pid',
        [name],
      );
      const victim = result.rows[pick(result.rows.length)];
      if (victim === undefined) return null;
      await admin.query('select pg_terminate_backend($1)', [victim.pid]);
      return victim.pid;
    },
    async drop() {
      try {
        await admin.query(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.href;
}
