import { randomUUID } from 'node:crypto';
import type { ReleaseLock } from '@dcbkit/core/store';
import type { SqlQueryable } from '../executor/sql-executor.js';
import type { StoreStatements } from './store-statements.js';

/** How long a lock holds without renewal: a holder whose process died frees it after this. */
const LEASE_SECONDS = 30;
/** Renewed well before the lease ends, so a slow statement never lets a live holder's lock lapse. */
const RENEW_EVERY_MS = (LEASE_SECONDS * 1000) / 3;

/**
 * tryLock over the locks table: one statement takes it (or finds it held), one releases it, and a
 * timer renews the lease while it is held. Unlike a session advisory lock, a held lock holds no
 * pooled connection, so locks taken by concurrent requests can never starve their own queries of
 * connections. The token makes a release free only the holder's own lock, never one taken over
 * after a lapse.
 */
export async function tryLeaseLock(
  executor: SqlQueryable,
  sql: StoreStatements,
  name: string,
): Promise<ReleaseLock | undefined> {
  const token = randomUUID();
  const { rows } = await executor.query<{ token: string }>(sql.takeLock, [name, token, LEASE_SECONDS]);
  if (rows[0]?.token !== token) return undefined;
  const renewal = setInterval(() => {
    executor.query(sql.renewLock, [name, token, LEASE_SECONDS]).catch(() => {
      // The next renewal tries again; a lease that lapses meanwhile is the price of the outage.
    });
  }, RENEW_EVERY_MS);
  renewal.unref?.();
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    clearInterval(renewal);
    await executor.query(sql.releaseLock, [name, token]);
  };
}
