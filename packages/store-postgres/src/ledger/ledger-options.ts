import { StorePostgresError } from '../errors/store-postgres-error.js';

export interface SqlLedgerOptions {
  /**
   * How long a claim in progress holds before another delivery (on any instance) may take it
   * over: the time an instance that crashed mid-event blocks the service's retries. Keep it above
   * your slowest event processing, listeners included. Default 60 s.
   */
  leaseMs?: number;
  /** How long `prune` keeps completed events. Default 72 hours; must exceed the 48-hour delivery window. */
  retentionMs?: number;
  /**
   * Make the ledger's writes (claims, completions) wait for the disk as the entitlement writes
   * do. Default false: losing one in a database crash is harmless (a redelivery is applied again,
   * which core's rules make a no-op), and not waiting saves two disk flushes per event.
   */
  durableLedger?: boolean;
}

export interface ResolvedLedgerOptions {
  leaseMs: number;
  retentionMs: number;
  durableLedger: boolean;
}

const HOUR_MS = 3_600_000;
/** The service delivers for up to 48 hours after the first attempt (the spec's limits). */
const DELIVERY_WINDOW_MS = 48 * HOUR_MS;

export function resolveLedgerOptions(options: SqlLedgerOptions = {}): ResolvedLedgerOptions {
  const { leaseMs = 60_000, retentionMs = 72 * HOUR_MS, durableLedger = false } = options;
  // Whole milliseconds below 2^31: they go to the database as an integer.
  if (!(Number.isSafeInteger(leaseMs) && leaseMs > 0 && leaseMs < 2 ** 31)) {
    throw new StorePostgresError('dcbkit store', 'leaseMs', 'must be a whole number of milliseconds > 0.');
  }
  if (!(Number.isSafeInteger(retentionMs) && retentionMs > DELIVERY_WINDOW_MS)) {
    throw new StorePostgresError(
      'dcbkit store',
      'retentionMs',
      'must exceed the 48-hour delivery window, or a late redelivery would be applied again.',
    );
  }
  return { leaseMs, retentionMs, durableLedger: durableLedger === true };
}
