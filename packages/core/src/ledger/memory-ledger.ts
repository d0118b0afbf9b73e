import { optionError } from '../errors/option-error.js';
import { type OptionNames, refuseUnknownOptions } from '../errors/unknown-options.js';
import { type Digest, DigestTable } from './digest-table.js';
import type { Claim, ClaimToken, EventLedger } from './event-ledger.js';
import { keyDigestInto } from './key-digest.js';

const HOUR_MS = 3_600_000;
/** The service delivers for up to 48 hours after the first attempt. */
export const DELIVERY_WINDOW_MS = 48 * HOUR_MS;

export interface MemoryLedgerOptions {
  /** Most events remembered (claims in progress included); the oldest go first. Default 100,000 (about 4 MB when full). */
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

/** Every option memoryLedger takes: the compiler holds this list to MemoryLedgerOptions. */
const MEMORY_LEDGER_OPTIONS: OptionNames<MemoryLedgerOptions> = {
  max: true,
  ttlMs: true,
  leaseMs: true,
  now: true,
};

/**
 * An in-process EventLedger: bounded, with completed events remembered past the 48-hour delivery
 * window and in-progress claims on a shorter lease. Per process: with several instances behind a
 * load balancer, use a shared ledger (`@dcbkit/store-postgres`).
 *
 * @example
 * const ledger = memoryLedger({ max: 200_000 });
 */
export function memoryLedger(options: MemoryLedgerOptions = {}): EventLedger {
  refuseUnknownOptions('memoryLedger', options, MEMORY_LEDGER_OPTIONS);
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
  // Every event it knows, by a digest of its key. The number of a completed event is when it is
  // forgotten; of a claim in progress, minus the end of its lease (ms since the ledger's creation,
  // so both are > 0 and the sign tells them apart). The token is the claim's.
  const known = new DigestTable(max);
  const origin = now();
  const sinceOrigin = () => now() - origin;
  let lastToken = 0;

  // complete() and release() usually follow the claim of the same key: digest it once.
  let lastKey: string | undefined;
  const digest: Digest = new Int32Array(4);
  const digestOf = (key: string): Digest => {
    if (key !== lastKey) {
      lastKey = key;
      keyDigestInto(key, digest);
    }
    return digest;
  };

  /**
   * A new claim on a new event (slot -1), or on one whose record expired or whose claim lapsed:
   * that one moves to the newest place, so a claim in progress is never the next to be forgotten.
   */
  function hold(id: Digest, slot: number, at: number): Claim {
    lastToken = lastToken === 0xffffffff ? 1 : lastToken + 1;
    if (slot >= 0) known.remove(slot);
    known.add(id, -(at + leaseMs), lastToken);
    return { status: 'new', token: lastToken };
  }

  return {
    async claim(key: string): Promise<Claim> {
      const id = digestOf(key);
      const at = sinceOrigin();
      const slot = known.find(id);
      if (slot < 0) return hold(id, slot, at);
      const value = known.values[slot] as number;
      if (value > 0) return at <= value ? DUPLICATE : hold(id, slot, at);
      return at < -value ? IN_PROGRESS : hold(id, slot, at);
    },
    async complete(key: string, token: ClaimToken): Promise<void> {
      const id = digestOf(key);
      const forgetAt = sinceOrigin() + ttlMs;
      const slot = known.find(id);
      // A claim that was forgotten with no one else holding it: the work was done, record it.
      if (slot < 0) return known.add(id, forgetAt, 0);
      // Completed already, or taken over by another holder: left as it is.
      if ((known.values[slot] as number) > 0 || known.tokens[slot] !== token) return;
      known.values[slot] = forgetAt;
    },
    async release(key: string, token: ClaimToken): Promise<void> {
      const slot = known.find(digestOf(key));
      if (slot >= 0 && (known.values[slot] as number) < 0 && known.tokens[slot] === token) known.remove(slot);
    },
  };
}
