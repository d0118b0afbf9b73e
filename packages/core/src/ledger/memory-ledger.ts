import { optionError } from '../errors/option-error.js';
import type { Claim, ClaimToken, EventLedger } from './event-ledger.js';
import { keyDigest } from './key-digest.js';

const HOUR_MS = 3_600_000;
/** The service delivers for up to 48 hours after the first attempt. */
export const DELIVERY_WINDOW_MS = 48 * HOUR_MS;

export interface MemoryLedgerOptions {
  /** Most events remembered; the least recently seen go first. Default 100,000 (about 6 MB when full). */
  max?: number;
  /** How long a completed event is remembered. Default 72 hours; must exceed the 48-hour delivery window. */
  ttlMs?: number;
  /** How long an in-progress claim holds before another delivery may take it over. Default 60 s. */
  leaseMs?: number;
  /** A monotonic clock in milliseconds, for tests. Default: performance.now. */
  now?: () => number;
}

const DUPLICATE: Claim = Object.freeze({ status: 'duplicate' });
const IN_PROGRESS: Claim = Object.freeze({ status: 'in_progress' });

/** An event being processed: whose claim it is, and until when (ms on the ledger's clock). */
interface Held {
  token: number;
  until: number;
}

/**
 * An in-process EventLedger: bounded, with completed events remembered past the 48-hour delivery
 * window and in-progress claims on a shorter lease. Per process: with several instances behind a
 * load balancer, use a shared ledger (`@dcbkit/store-postgres`).
 *
 * @example
 * const ledger = memoryLedger({ max: 200_000 });
 */
export function memoryLedger(options: MemoryLedgerOptions = {}): EventLedger {
  const { max = 100_000, ttlMs = 72 * HOUR_MS, leaseMs = 60_000, now = () => performance.now() } = options;
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
  // Completed events: digest -> the second (since the ledger's creation) after which it is
  // forgotten. A Map of small integers is as small as a store of digests gets (issue 29: within
  // 1.3x a bare Map of digests, where lru-cache's entries cost more), and its insertion order is
  // the recency order: a duplicate is moved to the end, and the first entry goes when full.
  // Seconds, rounded up, keep the value a small integer for decades, and remember an event at
  // most a second longer than ttlMs.
  const completed = new Map<string, number>();
  // Claims in flight: as many as deliveries being processed, plus lapsed ones not seen again.
  const held = new Map<string, Held>();
  const origin = now();
  const seconds = (ms: number) => (ms - origin) / 1000;
  let lastToken = 0;

  // One iterator kept across evictions: a fresh `keys().next()` would walk past every entry already
  // deleted at the front of the Map's table (until it is rebuilt), a cost growing with each
  // eviction. A Map's iterator carries on through deletions, insertions and rebuilds. Made only
  // once the ledger is full: until it moves on, an iterator keeps the table it started in alive
  // (and, through it, the tables that replaced it), which would double a filling ledger's memory.
  let oldestCompleted: MapIterator<string> | undefined;

  /** Forgets the least recently seen events (then the oldest claims) beyond `max`. */
  function bound(): void {
    while (completed.size + held.size > max) {
      if (completed.size === 0) {
        held.delete(held.keys().next().value as string);
        continue;
      }
      oldestCompleted ??= completed.keys();
      let next = oldestCompleted.next();
      if (next.done) {
        oldestCompleted = completed.keys();
        next = oldestCompleted.next();
      }
      completed.delete(next.value as string);
    }
  }

  // complete() and release() usually follow the claim of the same key: digest it once.
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
      const at = now();
      const forgetAt = completed.get(id);
      if (forgetAt !== undefined) {
        completed.delete(id);
        if (seconds(at) <= forgetAt) {
          completed.set(id, forgetAt);
          return DUPLICATE;
        }
      }
      const claim = held.get(id);
      if (claim !== undefined && at < claim.until) return IN_PROGRESS;
      const token = ++lastToken;
      if (claim !== undefined) held.delete(id);
      held.set(id, { token, until: at + leaseMs });
      bound();
      return { status: 'new', token };
    },
    async complete(key: string, token: ClaimToken): Promise<void> {
      const id = idOf(key);
      const claim = held.get(id);
      // Lapsed with no one else holding it: the work was done, record it.
      if (claim === undefined ? completed.has(id) : claim.token !== token) return;
      held.delete(id);
      completed.set(id, Math.ceil(seconds(now() + ttlMs)));
      bound();
    },
    async release(key: string, token: ClaimToken): Promise<void> {
      const id = idOf(key);
      if (held.get(id)?.token === token) held.delete(id);
    },
  };
}
