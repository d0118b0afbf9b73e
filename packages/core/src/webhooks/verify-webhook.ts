import { eventSchemaFor, type WebhookEvent } from '../schemas/webhook-event.js';
import { matchesAnySignature, type RawBody } from './hmac.js';
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
  /** How far `t` may be from now, in either direction. Default 300 (the spec's five minutes). */
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
 * Throws only WebhookVerificationError, whose `reason` says which check failed.
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

/** The signature and timestamp checks of verifyWebhook, without parsing the body. */
export function verifyWebhookSignature(options: VerifyWebhookOptions): void {
  const { rawBody, signature, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now } = options;
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookVerificationError('body_not_raw', RAW_BODY_HELP);
  }
  const { secrets } = options;
  if (!hasUsableSecret(secrets)) {
    throw new TypeError('verifyWebhook: secrets must be a non-empty string or a non-empty list of them.');
  }
  const header = scanSignatureHeader(signature);
  if (!matchesAnySignature(secrets, header, rawBody)) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      'No v1 signature matches the configured secret(s). Check the environment (sandbox and production have their own secret) and that the body is the exact received bytes.',
    );
  }
  const nowSeconds = Math.floor((now ? now.getTime() : Date.now()) / 1000);
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

/** Parses and validates a webhook body. Throws WebhookVerificationError (`body_not_json`, `event_invalid`). */
export function parseWebhookEvent(rawBody: RawBody): WebhookEvent {
  let json: unknown;
  try {
    json = JSON.parse(typeof rawBody === 'string' ? rawBody : bytesToString(rawBody));
  } catch (cause) {
    throw new WebhookVerificationError('body_not_json', 'The webhook body is not valid JSON.', { cause });
  }
  const event = typeof json === 'object' && json !== null ? (json as { event?: unknown }).event : undefined;
  const parsed = eventSchemaFor(event).safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
    throw new WebhookVerificationError(
      'event_invalid',
      `The webhook body is not a valid event (${where}${first?.message ?? 'invalid'}).`,
      { cause: parsed.error },
    );
  }
  return parsed.data;
}

function bytesToString(bytes: Uint8Array): string {
  return (
    Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  ).toString('utf8');
}
