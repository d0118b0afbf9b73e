import { findNodeCrypto } from './node-crypto.js';
import { type SignWebhookOptions, signatureSeconds, signOnNodeCrypto } from './sign-webhook.js';
import { formatSignatureHeader } from './signature-header.js';
import { signedMessage, subtleFor, webCryptoSignature } from './web-crypto-hmac.js';

const WHERE = 'signWebhookAsync';

/**
 * {@link signWebhook} for any runtime: the same header, as a promise. node's crypto where the
 * runtime has it, Web Crypto elsewhere (an edge function testing itself, a browser).
 *
 * @example
 * const signature = await signWebhookAsync({ payload: body, secret });
 */
export async function signWebhookAsync(options: SignWebhookOptions): Promise<string> {
  const crypto = findNodeCrypto();
  return crypto === undefined ? signWithWebCrypto(options) : signOnNodeCrypto(crypto, options, WHERE);
}

/** signWebhookAsync's work where the runtime has no node:crypto. */
export async function signWithWebCrypto({ payload, secret, timestamp }: SignWebhookOptions): Promise<string> {
  const subtle = subtleFor(WHERE);
  const seconds = signatureSeconds(timestamp, WHERE);
  const message = signedMessage(String(seconds), payload);
  return formatSignatureHeader(seconds, [await webCryptoSignature(subtle, secret, message)]);
}
