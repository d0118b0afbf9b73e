// One app instance, run as a child process by the multi-instance tests (bundled from sources by
// instances.ts): its own pg Pool, postgresStore and core's webhook handler. Deliveries come over
// IPC rather than HTTP, which would cost the shared test machine more CPU than the handler does:
// each message is a signed request (raw body and headers) handed to the handler as an adapter
// would hand it, and the answer goes back.
import { createWebhookHandler } from '@dcbkit/core';
import { postgresStore } from '@dcbkit/store-postgres';
import pg from 'pg';
import { offers, SECRET } from './event-stream.js';

const { DATABASE_URL, DCBKIT_SCHEMA, DCBKIT_LEASE_MS = '60000', DCBKIT_POOL_MAX = '8' } = process.env;
if (!DATABASE_URL || !DCBKIT_SCHEMA)
  throw new Error('webhook-instance: DATABASE_URL and DCBKIT_SCHEMA are required');

const pool = new pg.Pool({ connectionString: DATABASE_URL, max: Number(DCBKIT_POOL_MAX) });
pool.on('error', () => {});
const { store, ledger } = postgresStore({ pool, schema: DCBKIT_SCHEMA, leaseMs: Number(DCBKIT_LEASE_MS) });
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
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
