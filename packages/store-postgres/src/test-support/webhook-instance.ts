// One app instance, run as a child process by the multi-instance tests (bundled from sources by
// instances.ts): its own pg Pool, postgresStore and core's webhook handler. Deliveries come over
// IPC rather than HTTP, which would cost the shared test machine more CPU than the handler does:
// each message is a signed request (raw body and headers) handed to the handler as an adapter
// would hand it, and the answer goes back.
import { createWebhookHandler } from '@dcbkit/core/web';
import { pgliteStore, postgresStore, type SqlStore } from '@dcbkit/store-postgres';
import type pgTypes from 'pg';
import { offers, SECRET } from './event-stream.js';

const {
  DATABASE_URL,
  DCBKIT_SCHEMA,
  DCBKIT_PGLITE_DIR,
  DCBKIT_LEASE_MS = '60000',
  DCBKIT_POOL_MAX = '8',
  DCBKIT_TWO_PHASE,
  DCBKIT_PG = 'pg',
} = process.env;

/** The store over PostgreSQL (DATABASE_URL, DCBKIT_SCHEMA) or a PGlite folder (DCBKIT_PGLITE_DIR). */
async function openStore(): Promise<SqlStore> {
  const leaseMs = Number(DCBKIT_LEASE_MS);
  if (DCBKIT_PGLITE_DIR) return pgliteStore({ dataDir: DCBKIT_PGLITE_DIR, leaseMs });
  if (!DATABASE_URL || !DCBKIT_SCHEMA)
    throw new Error('webhook-instance: DATABASE_URL and DCBKIT_SCHEMA, or DCBKIT_PGLITE_DIR, are required');
  // The pg the test runs on (pg-versions.ts): `pg`, or `pg-oldest`, the oldest of the peer range.
  const { default: pg } = (await import(DCBKIT_PG)) as { default: typeof pgTypes };
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: Number(DCBKIT_POOL_MAX) });
  pool.on('error', () => {});
  return postgresStore({ pool, schema: DCBKIT_SCHEMA, leaseMs });
}

let sqlStore: SqlStore;
try {
  sqlStore = await openStore();
} catch (error) {
  // Told to the parent rather than thrown: a refused open is what some tests expect.
  const { code, message, details } = error as { code?: string; message: string; details?: unknown };
  process.send?.({ error: { code, message, details } });
  process.exit(3);
}
const { ledger } = sqlStore;
// DCBKIT_TWO_PHASE: the store without applyOnce, so that the handler takes the two-phase ledger path.
const { applyOnce: _applyOnce, reopen: _reopen, ...twoPhase } = sqlStore.store;
const store = DCBKIT_TWO_PHASE ? twoPhase : sqlStore.store;
const quiet = { error() {}, warn() {}, info() {}, debug() {} };
const handler = createWebhookHandler({ secrets: SECRET, store, ledger, offers, logger: quiet });

interface Delivery {
  id: number;
  body: string;
  headers: Record<string, string>;
}

process.on('message', (message) => {
  const { id, body, headers } = message as Delivery;
  handler({ rawBody: Buffer.from(body), headers }).then(
    (answer) => process.send?.({ id, status: answer.status, body: answer.body ?? '' }),
    () => process.send?.({ id, status: 500, body: '' }),
  );
});
// A graceful stop closes the store (a PGlite folder is let go); SIGKILL leaves it to the next opener.
const stop = () => sqlStore.close().finally(() => process.exit(0));
process.on('disconnect', stop);
process.on('SIGTERM', stop);
process.send?.({ ready: true });
