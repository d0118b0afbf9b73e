import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { configFromEnv, createClient, defineOffers, reconcile } from '@dcbkit/core';
import { RECONCILE_LOCK } from '@dcbkit/core/store';
import type { SqlStore } from '../connect/create-sql-store.js';
import { pgliteStore } from '../connect/pglite-store.js';
import { postgresStore } from '../connect/postgres-store.js';

type Env = Readonly<Record<string, string | undefined>>;

const USAGE = `Usage: dcbkit-store <migrate|reconcile> [options]
  --database-url <url>   PostgreSQL (default: $DATABASE_URL)
  --pglite <dir>         a PGlite data folder instead (default: $DCB_PGLITE_DIR)
  --schema <name>        the tables' schema (default: public)
  --table-prefix <p>     the tables' prefix, as your store's tablePrefix (default: dcbkit_)
  --offers <file>        reconcile: your offers as a JSON array (default: $DCB_OFFERS_FILE)
  --max-age-hours <n>    reconcile: read live subscriptions not heard of for n hours (default 168)
  --dry-run              reconcile: read and print what would change, change nothing (no migration either)
  -h, --help             this text
reconcile reads DCB_ENV, DCB_API_BASE_URL, DCB_CLIENT_ID, DCB_CLIENT_SECRET, DCB_WEBHOOK_SECRET.`;

/**
 * The `dcbkit-store` command: `migrate` creates or upgrades the tables, `reconcile` runs one
 * reconciliation under the same lock as kit.startReconciler. Resolves to the exit code:
 * 0 done, 1 a check failed or another instance holds the lock, 2 a usage or configuration error.
 */
export async function runStoreCli(
  argv: readonly string[],
  env: Env,
  print: (line: string) => void = console.log,
): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    print(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { command, values } = parsed;
  if (values.help) {
    print(USAGE);
    return 0;
  }
  if (command !== 'migrate' && command !== 'reconcile') {
    print(USAGE);
    return 2;
  }
  let sqlStore: SqlStore;
  try {
    sqlStore = await openStore(values, env);
  } catch (error) {
    print(`dcbkit-store: ${(error as Error).message}`);
    return 2;
  }
  try {
    if (command === 'migrate') {
      print(JSON.stringify(await sqlStore.migrate()));
      return 0;
    }
    return await reconcileOnce(sqlStore, values, env, print);
  } catch (error) {
    print(`dcbkit-store ${command}: ${(error as Error).message}`);
    return 2;
  } finally {
    await sqlStore.close();
  }
}

/**
 * `reconcile`: one reconciliation under the reconciler's lock (none on a dry run, which writes
 * nothing, not even a migration). Resolves to the exit code.
 */
async function reconcileOnce(
  sqlStore: SqlStore,
  values: ReturnType<typeof parse>['values'],
  env: Env,
  print: (line: string) => void,
): Promise<number> {
  const dryRun = values['dry-run'] === true;
  // A dry run changes nothing, the schema included: it reads the tables as they are.
  if (!dryRun) await sqlStore.migrate();
  const offersFile = values.offers ?? env.DCB_OFFERS_FILE;
  if (!offersFile) {
    print(`dcbkit-store reconcile: pass --offers <file> or set DCB_OFFERS_FILE.\n${USAGE}`);
    return 2;
  }
  const offers = defineOffers(JSON.parse(await readFile(offersFile, 'utf8')));
  const client = createClient(configFromEnv(env).client);
  // Nothing to keep apart from a running reconciler when nothing is written.
  const release = dryRun ? async () => {} : await sqlStore.store.tryLock(RECONCILE_LOCK);
  if (release === undefined) {
    print('dcbkit-store reconcile: another instance is reconciling; nothing done.');
    return 1;
  }
  try {
    const hours = values['max-age-hours'] === undefined ? 168 : Number(values['max-age-hours']);
    const report = await reconcile({
      client,
      store: sqlStore.store,
      offers,
      maxAgeMs: hours * 3_600_000,
      dryRun,
    });
    print(
      JSON.stringify(
        {
          ...(dryRun ? { dryRun: true } : {}),
          ...report,
          failures: report.failures.map(({ error: _error, ...rest }) => rest),
        },
        null,
        2,
      ),
    );
    return report.failures.length === 0 ? 0 : 1;
  } finally {
    await release();
  }
}

function parse(argv: readonly string[]) {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      'database-url': { type: 'string' },
      pglite: { type: 'string' },
      schema: { type: 'string' },
      offers: { type: 'string' },
      'max-age-hours': { type: 'string' },
      'table-prefix': { type: 'string' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  return { command: positionals[0], values };
}

async function openStore(values: ReturnType<typeof parse>['values'], env: Env): Promise<SqlStore> {
  const names = {
    ...(values.schema ? { schema: values.schema } : {}),
    ...(values['table-prefix'] !== undefined ? { tablePrefix: values['table-prefix'] } : {}),
  };
  const pglite = values.pglite ?? (values['database-url'] ? undefined : env.DCB_PGLITE_DIR);
  if (pglite) return pgliteStore({ dataDir: pglite, migrate: false, ...names });
  const connectionString = values['database-url'] ?? env.DATABASE_URL;
  if (!connectionString)
    throw new Error('set DATABASE_URL (or --database-url), or DCB_PGLITE_DIR (or --pglite).');
  return postgresStore({ connectionString, ...names });
}
