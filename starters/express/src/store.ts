import type { EntitlementStore, EventLedger, HistoryStore, ReconcileStore } from '@dcbkit/core';
import { pgliteStore, postgresStore } from '@dcbkit/store-postgres';
import type { ShopConfig } from './config.js';

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
    // Safe from several instances at once; a deploy step may run it instead (docs/going-live.md).
    await postgres.migrate();
    return { ...postgres, description: 'PostgreSQL (DATABASE_URL)' };
  }
  const pglite = await pgliteStore({ dataDir: config.dataDir });
  return { ...pglite, description: `PGlite in ${config.dataDir}` };
}
