import { hash } from 'node:crypto';

/**
 * The primary key of a ledger row: SHA-256 of the event key, as hex for `decode($1, 'hex')` (the
 * same text parameter for every driver). Fixed size whatever the key's length, and a collision
 * is out of reach, unlike with core's in-memory 128-bit digest, since this table lives for years.
 * One-shot `hash` rather than a Hash object: half the cost per event when the caches are cold, as
 * they are between deliveries (bench/postgres).
 */
export function keyHash(key: string): string {
  return hash('sha256', key, 'hex');
}
