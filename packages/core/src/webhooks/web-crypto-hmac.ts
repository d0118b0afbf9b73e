import { DcbError } from '../errors/dcb-error.js';
import { hexEqualAt, toHex } from './hex-digest.js';
import type { RawBody } from './raw-body.js';

// The asynchronous HMAC, on Web Crypto (crypto.subtle): what an edge runtime has in place of node's
// crypto. Typed with the little it uses, so that the types need neither the DOM library nor node's.

type HmacKey = object;

interface HmacSubtle {
  importKey(
    format: 'raw',
    keyData: Uint8Array,
    algorithm: { name: 'HMAC'; hash: 'SHA-256' },
    extractable: false,
    usages: ['sign'],
  ): Promise<HmacKey>;
  sign(algorithm: 'HMAC', key: HmacKey, data: Uint8Array): Promise<ArrayBuffer>;
}

/** crypto.subtle, or a DcbError `crypto_unavailable` where the runtime has no Web Crypto either. */
export function subtleFor(where: string): HmacSubtle {
  const subtle = (globalThis as { crypto?: { subtle?: HmacSubtle } }).crypto?.subtle;
  if (subtle !== undefined) return subtle;
  throw new DcbError(
    'crypto_unavailable',
    `${where} needs Web Crypto (globalThis.crypto.subtle), which this runtime does not have.`,
    { details: { use: 'a runtime with node:crypto or Web Crypto' } },
  );
}

const encoder = new TextEncoder();

// As hmac.ts: one key per secret, bounded. The promise is cached, so that deliveries arriving
// together while the key is imported share one import.
const MAX_CACHED_KEYS = 32;
const keyCache = new Map<string, Promise<HmacKey>>();

function keyFor(subtle: HmacSubtle, secret: string): Promise<HmacKey> {
  let key = keyCache.get(secret);
  if (key === undefined) {
    if (keyCache.size >= MAX_CACHED_KEYS) keyCache.clear();
    key = subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    keyCache.set(secret, key);
    // A failed import is not kept: the next call tries again.
    key.catch(() => keyCache.delete(secret));
  }
  return key;
}

/**
 * The bytes signed: `<t>.` then the raw body, in one buffer, as Web Crypto has no streaming
 * update. A string body is encoded as UTF-8, exactly as node's update(text, 'utf8') hashes it.
 */
export function signedMessage(timestampText: string, rawBody: RawBody): Uint8Array {
  if (typeof rawBody === 'string') return encoder.encode(`${timestampText}.${rawBody}`);
  const prefix = encoder.encode(`${timestampText}.`);
  const message = new Uint8Array(prefix.length + rawBody.byteLength);
  message.set(prefix);
  message.set(rawBody, prefix.length);
  return message;
}

/** HMAC-SHA256 of the message, in lowercase hex. */
export async function webCryptoSignature(
  subtle: HmacSubtle,
  secret: string,
  message: Uint8Array,
): Promise<string> {
  return toHex(await subtle.sign('HMAC', await keyFor(subtle, secret), message));
}

/**
 * True when any candidate v1 entry matches any secret. The candidates are copied out of the shared
 * header scan before this is called: another verification may scan its own header while this one
 * awaits the digest.
 */
export async function matchesAnySignatureWebCrypto(
  subtle: HmacSubtle,
  secrets: string | readonly string[],
  candidates: readonly string[],
  message: Uint8Array,
): Promise<boolean> {
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const expected = await webCryptoSignature(subtle, secret, message);
    for (const candidate of candidates) {
      if (hexEqualAt(expected, candidate, 0)) return true;
    }
  }
  return false;
}
