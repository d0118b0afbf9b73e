import type { WebhookEvent } from '../schemas/webhook-event.js';
import { SHA256_HEX_LENGTH } from './hex-digest.js';
import { parseWebhookEvent } from './parse-webhook-event.js';
import { type HeaderScan, scanSignatureHeader } from './signature-header.js';
import {
  checkTimestamp,
  checkVerifyOptions,
  signatureMismatch,
  type VerifyWebhookOptions,
} from './verify-checks.js';
import { matchesAnySignatureWebCrypto, signedMessage, subtleFor } from './web-crypto-hmac.js';

/** verifyWebhookAsync's work where the runtime has no node:crypto: the same checks, on Web Crypto. */
export async function verifyWithWebCrypto(
  options: VerifyWebhookOptions,
  where: string,
): Promise<WebhookEvent> {
  const subtle = subtleFor(where);
  const clock = checkVerifyOptions(options, where);
  const { rawBody } = options;
  const header = scanSignatureHeader(options.signature);
  // The scan is reused by the next call, which may come while this one awaits: copy it first.
  const { timestamp } = header;
  const candidates = digestCandidates(header);
  const message = signedMessage(header.timestampText, rawBody);
  if (!(await matchesAnySignatureWebCrypto(subtle, options.secrets, candidates, message))) {
    throw signatureMismatch();
  }
  checkTimestamp(timestamp, clock);
  return parseWebhookEvent(rawBody);
}

/** The v1 entries that have a digest's length; no other can match. */
function digestCandidates(scan: HeaderScan): string[] {
  const candidates: string[] = [];
  for (let i = 0; i < scan.v1Count; i++) {
    const start = scan.v1Start[i] as number;
    const end = scan.v1End[i] as number;
    if (end - start === SHA256_HEX_LENGTH) candidates.push(scan.text.slice(start, end));
  }
  return candidates;
}
