import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

/**
 * The floor: the least a correct receiver must do with a signed webhook, written directly on
 * node:crypto. Read `t` and `v1` from the header, HMAC-SHA256 over `<t>.<rawBody>` with a key
 * built once (dcbkit caches its key too, so a floor that re-imported it per call would flatter
 * dcbkit), compare in constant time, check the 300 s tolerance, JSON.parse. No schema, no
 * rotation, no error messages: everything dcbkit does beyond this is its overhead.
 */
export type FloorCheck = (rawBody: Buffer, header: string | undefined, nowSeconds: number) => void;
export type FloorVerifier = (rawBody: Buffer, header: string | undefined, nowSeconds: number) => unknown;

const TOLERANCE_SECONDS = 300;

/** The signature and timestamp checks alone. Throws on a bad signature or a stale timestamp. */
export function createFloorCheck(secret: string): FloorCheck {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  return (rawBody, header, nowSeconds) => {
    let t = '';
    let v1 = '';
    for (const part of (header ?? '').split(',')) {
      if (part.startsWith('t=')) t = part.slice(2);
      else if (part.startsWith('v1=')) v1 = part.slice(3);
    }
    const expected = createHmac('sha256', key).update(`${t}.`).update(rawBody).digest();
    const given = Buffer.from(v1, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new Error('floor: signature mismatch');
    }
    if (Math.abs(nowSeconds - Number(t)) > TOLERANCE_SECONDS) throw new Error('floor: stale timestamp');
  };
}

/** The checks, then JSON.parse: the whole floor, returning the parsed body. */
export function createFloorVerifier(secret: string): FloorVerifier {
  const check = createFloorCheck(secret);
  return (rawBody, header, nowSeconds) => {
    check(rawBody, header, nowSeconds);
    return JSON.parse(rawBody.toString('utf8'));
  };
}
