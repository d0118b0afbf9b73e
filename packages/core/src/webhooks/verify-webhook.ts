import type { WebhookEvent } from '../schemas/webhook-event.js';
import { matchesAnySignature } from './hmac.js';
import { nodeCryptoFor } from './node-crypto.js';
import { parseWebhookEvent } from './parse-webhook-event.js';
import { scanSignatureHeader } from './signature-header.js';
import {
  checkTimestamp,
  checkVerifyOptions,
  signatureMismatch,
  type VerifyWebhookOptions,
} from './verify-checks.js';

export {
  checkTolerance,
  DEFAULT_TOLERANCE_SECONDS,
  MAX_TOLERANCE_SECONDS,
  type VerifyWebhookOptions,
} from './verify-checks.js';

/**
 * Verifies a webhook from the service and returns its typed event.
 *
 * Checks, in order: the header's shape, the signature (HMAC-SHA256 over `<t>.<rawBody>`, constant-time,
 * any secret, any v1 entry), the timestamp tolerance, then that the body is a JSON webhook event.
 * Throws only WebhookVerificationError, whose `code` says which check failed.
 *
 * Synchronous, on node's crypto (Node, Bun, Deno). Where the runtime has none (an edge runtime), it
 * throws a DcbError `crypto_unavailable`: use {@link verifyWebhookAsync} there.
 *
 * @example
 * const event = verifyWebhook({
 *   rawBody: req.body, // a Buffer, from express.raw({ type: 'application/json' })
 *   signature: req.headers['service-signature'],
 *   secrets: process.env.DCB_WEBHOOK_SECRET!,
 * });
 * if (event.event === 'payment.succeeded') grant(event.metadata?.userId, event.productUid);
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  return verifyOnNodeCrypto(options, 'verifyWebhook');
}

/** verifyWebhook's work, on node's crypto; verifyWebhookAsync runs it too where the runtime has node's crypto. */
export function verifyOnNodeCrypto(options: VerifyWebhookOptions, where: string): WebhookEvent {
  const crypto = nodeCryptoFor(where, 'verifyWebhookAsync');
  const clock = checkVerifyOptions(options, where);
  const { rawBody } = options;
  const header = scanSignatureHeader(options.signature);
  if (!matchesAnySignature(crypto, options.secrets, header, rawBody)) throw signatureMismatch();
  checkTimestamp(header.timestamp, clock);
  return parseWebhookEvent(rawBody);
}
