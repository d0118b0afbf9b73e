import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ShopConfig } from '../config.js';

/** How the operations view is signed in to: its password, and whether this run made it up. */
export interface OperatorAccess {
  password: string;
  /** True on the embedded sandbox without OPERATOR_PASSWORD: a random password, printed at start. */
  generated: boolean;
}

/**
 * OPERATOR_PASSWORD when set. Without it, the embedded sandbox makes a random one per run (printed
 * with the startup lines), and a shop on the real service has no operations view: an unset
 * variable must never leave a known or empty password guarding it.
 */
export function operatorAccessOf(config: ShopConfig): OperatorAccess | undefined {
  if (config.operatorPassword !== undefined) return { password: config.operatorPassword, generated: false };
  if (config.mode !== 'embedded-sandbox') return undefined;
  return { password: randomBytes(18).toString('base64url'), generated: true };
}

/**
 * Compares SHA-256 digests with timingSafeEqual: digests always have the same length, so neither
 * the time taken nor a length check tells an attacker how much of a guess was right, or how long
 * the password is.
 */
export function passwordMatches(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
