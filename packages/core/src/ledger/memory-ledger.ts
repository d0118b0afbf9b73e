import { LRUCache } from 'lru-cache';
import { optionError } from '../errors/option-error.js';
import type { Claim, ClaimToken, EventLedger } from './event-ledger.js';
import { keyDigest } from './key-digest.js';

const HOUR_MS = 3_600_000;
/** The service delivers for up to 48 hours after the first attempt. */
export const DELIVERY_WINDOW_MS = 48 * HOUR_MS;

export interface MemoryLedgerOptions {
  /** Most events remembered; the least recently seen go first. Default 100,000 (about 14 MB when full). */
  max?: number;
  /** How long a completed event is remembered. Default 72 hours; must exceed the 48-hour delivery window. */
  ttlMs?: number;
  /** How long an in-progress claim holds before another delivery may take it over. Default 60 s. */
  leaseMs?: number;
  /** A monotonic clock in milliseconds, for tests. Default: performance.now. */
  now?: () => number;
}

// Small values keep an entry small: a number is stored inline, a string or object would not be.
// A completed key holds 0; a claimed one its holder's token, a counter from 1: one number per key.
const COMPLETED = 0;

const DUPLICATE: Claim = Object.freeze({ status: 'duplicate' });
const IN_PROGRESS: Claim = Object.freeze({ status: 'in_progress' });

/**
 * An in-process EventLedger on lru-cache: bounded, with completed events remembered past the
 * 48-hour delivery window and in-progress claims on a shorter lease. Per process: with several
 * instances behind a load balancer, use a shared ledger (`@dcbkit/store-postgres`).
 *
 * @example
 * const ledger = memoryLedger({ max: 200_000 });
 */
export function memoryLedger(options: MemoryLedgerOptions = {}): EventLedger {
  const { max = 100_000, ttlMs = 72 * HOUR_MS, leaseMs = 60_000, now } = options;
  if (!Number.isSafeInteger(max) || max < 1)
    throw optionError('memoryLedger', 'max', 'must be a whole number >= 1.');
  if (!(ttlMs > DELIVERY_WINDOW_MS)) {
    throw optionError(
      'memoryLedger',
      'ttlMs',
      'must exceed the 48-hour delivery window, or a late redelivery would be applied again.',
    );
  }
  if (!(leaseMs > 0 && leaseMs < ttlMs))
    throw optionError('memoryLedger', 'leaseMs', 'must be > 0 and < ttlMs.');
  const cache = new LRUCache<string, number>({
    // Counted by maxSize rather than `max`: lru-cache allocates arrays of `max` entries at creation
    // (42 MiB for a million, whatever the fill); this way memory grows with the events held.
    maxSize: max,
    sizeCalculation: () => 1,
    ttl: ttlMs,
    // A lease of seconds does not need a fresh clock reading per call: lru-cache's 1 ms reuse is
    // fine, except with an injected clock, whose every move a test expects to see at once.
    ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
  });
  // Built once: lru-cache reads them, and a busy receiver calls these for every event.
  const asClaimed = { ttl: leaseMs };
  const asCompleted = { ttl: ttlMs };
  // complete() and release() usually follow the claim of the same key: digest it once.
  let lastToken = 0;
  let lastKey = '';
  let lastId = keyDigest('');
  const idOf = (key: string): string => {
    if (key !== lastKey) {
      lastKey = key;
      lastId = keyDigest(key);
    }
    return lastId;
  };
  return {
    async claim(key: string): Promise<Claim> {
      const id = idOf(key);
      const state = cache.get(id);
      if (state === COMPLETED) return DUPLICATE;
      if (state !== undefined) return IN_PROGRESS;
      const token = ++lastToken;
      cache.set(id, token, asClaimed);
      return { status: 'new', token };
    },
    async complete(key: string, token: ClaimToken): Promise<void> {
      const id = idOf(key);
      const state = cache.get(id);
      // Lapsed with no one else holding it: the work was done, record it.
      if (state === token || state === undefined) cache.set(id, COMPLETED, asCompleted);
    },
    async release(key: string, token: ClaimToken): Promise<void> {
      const id = idOf(key);
      if (cache.peek(id) === token) cache.delete(id);
    },
  };
}
