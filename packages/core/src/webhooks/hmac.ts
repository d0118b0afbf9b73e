import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { HeaderScan } from './signature-header.js';

export type RawBody = string | Uint8Array;

const SHA256_BYTES = 32;

// A receiver verifies with the same one or two secrets all day; turning the string into a key
// once saves a tenth of a 1 KiB verification. Bounded so that a caller cycling secrets cannot grow it.
const MAX_CACHED_KEYS = 32;
const keyCache = new Map<string, KeyObject>();

function keyFor(secret: string): KeyObject {
  let key = keyCache.get(secret);
  if (key === undefined) {
    if (keyCache.size >= MAX_CACHED_KEYS) keyCache.clear();
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keyCache.set(secret, key);
  }
  return key;
}

/** HMAC-SHA256 over `<t>.<rawBody>`: the exact received bytes, never re-serialised JSON. */
export function computeSignature(secret: string, timestampText: string, rawBody: RawBody): Buffer {
  const hmac = createHmac('sha256', keyFor(secret)).update(`${timestampText}.`);
  return (typeof rawBody === 'string' ? hmac.update(rawBody, 'utf8') : hmac.update(rawBody)).digest();
}

// Lowercase hex digit -> value, anything else -> 255. The spec's digest is lowercase hex.
const HEX_VALUE = new Uint8Array(128).fill(255);
for (let i = 0; i < 10; i++) HEX_VALUE[48 + i] = i;
for (let i = 0; i < 6; i++) HEX_VALUE[97 + i] = 10 + i;

/**
 * Decodes text[from, to) into `target`; false unless it is exactly 64 lowercase hex characters.
 * The scan does the same work whatever the characters, and allocates nothing.
 */
function decodeLowercaseHex(text: string, from: number, to: number, target: Buffer): boolean {
  if (to - from !== SHA256_BYTES * 2) return false;
  let invalid = 0;
  for (let i = 0; i < SHA256_BYTES; i++) {
    const highCode = text.charCodeAt(from + 2 * i);
    const lowCode = text.charCodeAt(from + 2 * i + 1);
    const high = HEX_VALUE[highCode & 127] as number;
    const low = HEX_VALUE[lowCode & 127] as number;
    invalid |= ((high | low) & 16) | ((highCode | lowCode) & ~127);
    target[i] = (high << 4) | (low & 15);
  }
  return invalid === 0;
}

// Reused by every call: the comparison is synchronous, so no two calls can share it at once,
// and it only ever holds bytes the sender supplied.
const candidate = Buffer.alloc(SHA256_BYTES);

/** True when any v1 entry of the scanned header matches any secret, compared with crypto.timingSafeEqual. */
export function matchesAnySignature(
  secrets: string | readonly string[],
  scan: HeaderScan,
  rawBody: RawBody,
): boolean {
  if (typeof secrets === 'string') return matchesSecret(secrets, scan, rawBody);
  for (const secret of secrets) {
    if (matchesSecret(secret, scan, rawBody)) return true;
  }
  return false;
}

function matchesSecret(secret: string, scan: HeaderScan, rawBody: RawBody): boolean {
  const expected = computeSignature(secret, scan.timestampText, rawBody);
  for (let i = 0; i < scan.v1Count; i++) {
    if (
      decodeLowercaseHex(scan.text, scan.v1Start[i] as number, scan.v1End[i] as number, candidate) &&
      timingSafeEqual(expected, candidate)
    ) {
      return true;
    }
  }
  return false;
}
