import { mkdir } from 'node:fs/promises';
import type { EntitlementStore, EventLedger, HistoryStore, ReconcileStore } from '@dcbkit/core/store';
import { pgliteStore, postgresStore } from '@dcbkit/store-postgres';
import { type ShopConfig, ShopConfigError } from './config.js';

/** Where entitlements and processed events live, and how to let go of it at shutdown. */
export interface ShopStore {
  /** Undefined: the kit's memory store and ledger. */
  store: (EntitlementStore & ReconcileStore & HistoryStore) | undefined;
  ledger: EventLedger | undefined;
  /** A few words for the startup line. */
  description: string;
  close(): Promise<void>;
}

/**
 * - Embedded sandbox: in memory. The sandbox forgets its payments and subscriptions when the
 *   process stops, so the store forgets with it.
 * - Real service with DATABASE_URL: PostgreSQL, shared by every instance of the app (each webhook
 *   event has exactly one effect even when copies reach two instances at once).
 * - Real service without DATABASE_URL: PGlite (PostgreSQL in this process) in DATA_DIR, for a
 *   single instance that keeps its entitlements across restarts.
 */
export async function openStore(config: ShopConfig): Promise<ShopStore> {
  if (config.mode === 'embedded-sandbox') {
    return { store: undefined, ledger: undefined, description: 'in memory', close: async () => {} };
  }
  if (config.databaseUrl !== undefined) {
    const postgres = postgresStore({ connectionString: config.databaseUrl });
    try {
      // Safe from several instances at once; a deploy step may run it instead (docs/going-live.md).
      await postgres.migrate();
    } catch (error) {
      await postgres.close().catch(() => {});
      throw new ShopConfigError([databaseProblem(config.databaseUrl, error)]);
    }
    return { ...postgres, description: 'PostgreSQL (DATABASE_URL)' };
  }
  // The first start on a machine makes the folder (and its parents); PGlite makes only the last.
  await mkdir(config.dataDir, { recursive: true }).catch((error: unknown) => {
    throw new ShopConfigError([
      `DATA_DIR: the data folder ${config.dataDir} cannot be made (${codeOf(error)}): point DATA_DIR at a folder this user may write, or set DATABASE_URL.`,
    ]);
  });
  const pglite = await pgliteStore({ dataDir: config.dataDir });
  return { ...pglite, description: `PGlite in ${config.dataDir}` };
}

/** Why PostgreSQL did not answer, naming the variable and the server, never the password. */
function databaseProblem(databaseUrl: string, error: unknown): string {
  let server = 'the server';
  try {
    const url = new URL(databaseUrl);
    server = `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    // Checked by readShopConfig already; a URL pg accepts and URL does not keeps the vague words.
  }
  return `DATABASE_URL: PostgreSQL at ${server} did not answer or refused the shop (${codeOf(error)}): start it, or fix the URL (postgres://user:password@host:5432/database), or unset it to keep entitlements in PGlite in DATA_DIR.`;
}

/** A system error's code (ECONNREFUSED, EACCES), else the error's own words (PostgreSQL's name no secret). */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && code.startsWith('E')) return code;
  return error instanceof Error ? error.message : String(error);
}
