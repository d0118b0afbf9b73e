import { optionError } from '../errors/option-error.js';
import { isBytes, type RawBody } from './raw-body.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

// The checks verifyWebhook and verifyWebhookAsync share, so that both refuse the same input with
// the same code and message, whichever HMAC computes the signature.

/** The spec rejects events whose `t` is more than five minutes from now. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The most a tolerance may be: an hour already lets a captured delivery be replayed for that long. */
export const MAX_TOLERANCE_SECONDS = 3600;

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
  'Koa: use ctx.request.rawBody from @koa/bodyparser, or read the stream before any body parser runs. ' +
  'A fetch Request (an edge function): new Uint8Array(await request.arrayBuffer()).';

/** The checked tolerance and clock of one verification. */
export interface VerifyClock {
  toleranceSeconds: number;
  nowMs: number;
}

/** The options' own checks, before the header is read: the caller's mistakes, not the request's. */
export function checkVerifyOptions(options: VerifyWebhookOptions, where: string): VerifyClock {
  const { rawBody, now } = options;
  const toleranceSeconds = checkTolerance(options.toleranceSeconds, where);
  const nowMs = now === undefined ? Date.now() : checkNow(now, where);
  if (typeof rawBody !== 'string' && !isBytes(rawBody)) {
    throw new WebhookVerificationError('body_not_raw', RAW_BODY_HELP);
  }
  if (!hasUsableSecret(options.secrets)) {
    throw optionError(where, 'secrets', 'must be a non-empty string or a non-empty list of them.');
  }
  return { toleranceSeconds, nowMs };
}

export function signatureMismatch(): WebhookVerificationError {
  return new WebhookVerificationError(
    'signature_mismatch',
    'No v1 signature matches the configured secret(s). Check the environment (sandbox and production have their own secret) and that the body is the exact received bytes.',
  );
}

/** Checked after the signature, so that a mistyped secret reads as a mismatch, not a clock problem. */
export function checkTimestamp(timestamp: number, { toleranceSeconds, nowMs }: VerifyClock): void {
  const nowSeconds = Math.floor(nowMs / 1000);
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `Signature timestamp is ${nowSeconds - timestamp} s from now; at most ${toleranceSeconds} s is accepted.`,
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

function checkNow(now: unknown, where: string): number {
  const ms = now instanceof Date ? now.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw optionError(where, 'now', 'must be a valid Date.');
  return ms;
}
