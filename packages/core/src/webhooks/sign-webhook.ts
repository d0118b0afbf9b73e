import { optionError } from '../errors/option-error.js';
import { computeSignature, type RawBody } from './hmac.js';
import { type NodeCrypto, nodeCryptoFor } from './node-crypto.js';
import { formatSignatureHeader } from './signature-header.js';

export interface SignWebhookOptions {
  /** The exact body you will send: sign a string or bytes, then send those same bytes. */
  payload: RawBody;
  secret: string;
  /** Unix seconds or a Date. Default: now. */
  timestamp?: number | Date;
}

/**
 * Signs a body the way the service does and returns the `Service-Signature` header value.
 * Use it to test your own receiver.
 *
 * Synchronous, on node's crypto; where the runtime has none (an edge runtime), use
 * {@link signWebhookAsync}.
 *
 * @example
 * const body = JSON.stringify({ event: 'payment.succeeded', ... });
 * await fetch('http://127.0.0.1:3000/webhooks/dcb', {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json', 'service-signature': signWebhook({ payload: body, secret }) },
 *   body,
 * });
 */
export function signWebhook({ payload, secret, timestamp }: SignWebhookOptions): string {
  const crypto = nodeCryptoFor('signWebhook', 'signWebhookAsync');
  return signOnNodeCrypto(crypto, { payload, secret, timestamp }, 'signWebhook');
}

/** signWebhook's work; signWebhookAsync runs it too where the runtime has node's crypto. */
export function signOnNodeCrypto(
  crypto: NodeCrypto,
  { payload, secret, timestamp }: SignWebhookOptions,
  where: string,
): string {
  const seconds = signatureSeconds(timestamp, where);
  return formatSignatureHeader(seconds, [computeSignature(crypto, secret, String(seconds), payload)]);
}

/** The timestamp to sign, in whole unix seconds: now by default. */
export function signatureSeconds(timestamp: number | Date | undefined, where: string): number {
  const seconds =
    timestamp instanceof Date
      ? Math.floor(timestamp.getTime() / 1000)
      : (timestamp ?? Math.floor(Date.now() / 1000));
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw optionError(where, 'timestamp', 'must be whole unix seconds or a Date.');
  }
  return seconds;
}
