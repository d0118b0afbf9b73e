import type { KeyObject } from 'node:crypto';
import { hexEqualAt, SHA256_HEX_LENGTH } from './hex-digest.js';
import type { NodeCrypto } from './node-crypto.js';
import type { RawBody } from './raw-body.js';
import type { HeaderScan } from './signature-header.js';

// The synchronous HMAC, on node's crypto (found at run time: node-crypto.ts). Web Crypto's is
// web-crypto-hmac.ts.

export type { RawBody } from './raw-body.js';

// A receiver verifies with the same one or two secrets all day; turning the string into a key
// once saves a tenth of a 1 KiB verification. Bounded so that a caller cycling secrets cannot grow it.
const MAX_CACHED_KEYS = 32;
const keyCache = new Map<string, KeyObject>();

function keyFor(crypto: NodeCrypto, secret: string): KeyObject {
  let key = keyCache.get(secret);
  if (key === undefined) {
    if (keyCache.size >= MAX_CACHED_KEYS) keyCache.clear();
    key = crypto.createSecretKey(Buffer.from(secret, 'utf8'));
    keyCache.set(secret, key);
  }
  return key;
}

/** HMAC-SHA256 over `<t>.<rawBody>`, in lowercase hex: the exact received bytes, never re-serialised JSON. */
export function computeSignature(
  crypto: NodeCrypto,
  secret: string,
  timestampText: string,
  rawBody: RawBody,
): string {
  const hmac = crypto.createHmac('sha256', keyFor(crypto, secret)).update(`${timestampText}.`);
  return (typeof rawBody === 'string' ? hmac.update(rawBody, 'utf8') : hmac.update(rawBody)).digest('hex');
}

/** True when any v1 entry of the scanned header matches any secret. */
export function matchesAnySignature(
  crypto: NodeCrypto,
  secrets: string | readonly string[],
  scan: HeaderScan,
  rawBody: RawBody,
): boolean {
  if (typeof secrets === 'string') return matchesSecret(crypto, secrets, scan, rawBody);
  for (const secret of secrets) {
    if (matchesSecret(crypto, secret, scan, rawBody)) return true;
  }
  return false;
}

function matchesSecret(crypto: NodeCrypto, secret: string, scan: HeaderScan, rawBody: RawBody): boolean {
  const expected = computeSignature(crypto, secret, scan.timestampText, rawBody);
  for (let i = 0; i < scan.v1Count; i++) {
    const start = scan.v1Start[i] as number;
    if ((scan.v1End[i] as number) - start === SHA256_HEX_LENGTH && hexEqualAt(expected, scan.text, start)) {
      return true;
    }
  }
  return false;
}
