import { optionError } from '../errors/option-error.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { matchesAnySignature, type RawBody } from './hmac.js';
import { parseWebhookEvent } from './parse-webhook-event.js';
import { scanSignatureHeader } from './signature-header.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

/** The spec rejects events whose `t` is more than five minutes from now. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyWebhookOptions {
  /** The request body exactly as received: a Buffer, Uint8Array or string. Never a parsed object. */
  rawBody: RawBody;
  /** The `Service-Signature` header value. */
  signature: string | readonly string[] | undefined | null;
  /** The environment's signing secret, or several while rotating: any one matching is enough. */
  secrets: string | readonly string[];
  /**
   * How far `t` may be from now, in either direction. Default 300 (the spec's five minutes); a
   * whole number from 1 to 3600. Anything else is refused: a NaN, Infinity or huge tolerance would
   * accept a captured delivery forever.
   */
  toleranceSeconds?: number;
  /** The clock, for tests. Default: the current time. */
  now?: Date;
}

const RAW_BODY_HELP =
  'verifyWebhook needs the raw request body (Buffer or string), not a parsed object. ' +
  'Express: mount express.raw({ type: "application/json" }) on the webhook route before any JSON parser, ' +
  'or keep the bytes with express.json({ verify: (req, _res, buf) => { req.rawBody = buf } }). ' +
  'Koa: use ctx.request.rawBody from @koa/bodyparser, or read the stream before any body parser runs.';

/**
 * Verifies a webhook from the service and returns its typed event.
 *
 * Checks, in order: the header's shape, the signature (HMAC-SHA256 over `<t>.<rawBody>`, constant-time,
 * any secret, any v1 entry), the timestamp tolerance, then that the body is a JSON webhook event.
 * Throws only WebhookVerificationError, whose `code` says which check failed.
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
  verifyWebhookSignature(options);
  return parseWebhookEvent(options.rawBody);
}

/** The most a tolerance may be: an hour already lets a captured delivery be replayed for that long. */
export const MAX_TOLERANCE_SECONDS = 3600;

/** The signature and timestamp checks of verifyWebhook, without parsing the body. */
function verifyWebhookSignature(options: VerifyWebhookOptions): void {
  const { rawBody, signature, now } = options;
  const toleranceSeconds = checkTolerance(options.toleranceSeconds);
  const nowMs = now === undefined ? Date.now() : checkNow(now);
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookVerificationError('body_not_raw', RAW_BODY_HELP);
  }
  const { secrets } = options;
  if (!hasUsableSecret(secrets)) {
    throw optionError('verifyWebhook', 'secrets', 'must be a non-empty string or a non-empty list of them.');
  }
  const header = scanSignatureHeader(signature);
  if (!matchesAnySignature(secrets, header, rawBody)) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      'No v1 signature matches the configured secret(s). Check the environment (sandbox and production have their own secret) and that the body is the exact received bytes.',
    );
  }
  const nowSeconds = Math.floor(nowMs / 1000);
  if (Math.abs(nowSeconds - header.timestamp) > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `Signature timestamp is ${nowSeconds - header.timestamp} s from now; at most ${toleranceSeconds} s is accepted.`,
    );
  }
}

function hasUsableSecret(secrets: string | readonly string[]): boolean {
  if (typeof secrets === 'string') return secrets !== '';
  return (
    Array.isArray(secrets) &&
    secrets.length > 0 &&
    secrets.every((secret) => typeof secret === 'string' && secret !== '')
  );
}

/** The tolerance to use: the default, or a whole number of seconds within reason. */
export function checkTolerance(value: number | undefined, where = 'verifyWebhook'): number {
  if (value === undefined) return DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_TOLERANCE_SECONDS) {
    throw optionError(
      where,
      'toleranceSeconds',
      `must be a whole number from 1 to ${MAX_TOLERANCE_SECONDS}; got ${String(value)}.`,
    );
  }
  return value;
}

function checkNow(now: unknown): number {
  const ms = now instanceof Date ? now.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw optionError('verifyWebhook', 'now', 'must be a valid Date.');
  return ms;
}
