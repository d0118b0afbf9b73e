import { createHash, randomBytes } from 'node:crypto';

const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * A fresh nonce to render into a checkout form. Submitting the same form twice sends the same
 * nonce, which becomes the same Idempotency-Key: one payment, however often the button is pressed.
 */
export function createCheckoutNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function isCheckoutNonce(value: unknown): value is string {
  return typeof value === 'string' && NONCE_PATTERN.test(value);
}

/**
 * The Idempotency-Key of a checkout: bound to the account and the offer as well as the nonce, so a
 * nonce replayed by another account, or for another offer, starts its own payment.
 */
export function checkoutIdempotencyKey(accountKey: string, offerUid: string, nonce: string): string {
  // JSON, not a separator: no two triples read alike, and a lone surrogate stays escaped.
  const digest = createHash('sha256')
    .update(JSON.stringify([accountKey, offerUid, nonce]))
    .digest('base64url');
  return `chk_${digest}`;
}
