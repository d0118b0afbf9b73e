import { createHmac, randomBytes } from 'node:crypto';

/** A fresh opaque identifier such as `pay_3f9c...`. */
export function newId(prefix: 'pay' | 'ord' | 'subs' | 'evt'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/**
 * The subscriber's identifier for one application: stable for the same application and number,
 * different across applications, and keyed so that it cannot be reversed into the number (a phone
 * numbering plan is small enough to brute-force an unkeyed hash).
 */
export function subscriberUidFor(key: string, clientId: string, msisdn: string): string {
  const digest = createHmac('sha256', key).update(`${clientId}\n${msisdn}`).digest('hex');
  return `sbr_${digest.slice(0, 32)}`;
}
