import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * `<nonce>.<issued>.<mac>`: the nonce makes each rendered form unique (it doubles as the checkout's
 * idempotency nonce), `issued` is when it was made (seconds, base 36), and the mac binds both to
 * the signed-in account and, when the app names one, its session, so a page of another site cannot
 * forge one for a victim, and one seen once stops working after `maxAgeMs`.
 *
 * Not single-use on purpose: pressing "pay" twice posts the same form twice, and the second post
 * must find the same payment (same nonce, same idempotency key), not a refusal.
 */
const TOKEN = /^([A-Za-z0-9_-]{24})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{43})$/;

/** 12 hours: a page left open over a working day still posts; well inside the service's 24-hour idempotency window. */
export const DEFAULT_FORM_TOKEN_MAX_AGE_MS = 12 * 60 * 60 * 1000;

// Instances' clocks differ a little: a token issued "in the future" by this much is still fine.
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Who a form token is for: the account, and the app's session id when it has one. */
export interface FormTokenBinding {
  accountKey: string;
  session?: string | undefined;
}

export interface FormTokenKeys {
  /** Every key that verifies; the first one makes new tokens. */
  readonly secrets: readonly string[];
  readonly maxAgeMs: number;
}

function macOf(secret: string, binding: FormTokenBinding, nonce: string, issued: string): string {
  // JSON, not a separator: no account key or session id can be read as another pair, and a lone
  // surrogate stays escaped instead of becoming U+FFFD.
  const message = JSON.stringify([
    'dcbkit-form/2',
    binding.accountKey,
    binding.session ?? null,
    nonce,
    issued,
  ]);
  return createHmac('sha256', secret).update(message).digest('base64url');
}

/** A token to render into a state-changing form of this account (checkout, cancel, resume). */
export function createFormToken(keys: FormTokenKeys, binding: FormTokenBinding, nowMs: number): string {
  const nonce = randomBytes(18).toString('base64url');
  const issued = Math.floor(nowMs / 1000).toString(36);
  return `${nonce}.${issued}.${macOf(keys.secrets[0] ?? '', binding, nonce, issued)}`;
}

/**
 * The token's nonce when one of `keys` made it for this binding no longer than `maxAgeMs` ago;
 * undefined otherwise (malformed, another account or session, expired, or an unknown key).
 */
export function verifyFormToken(
  keys: FormTokenKeys,
  binding: FormTokenBinding,
  token: unknown,
  nowMs: number,
): string | undefined {
  if (typeof token !== 'string') return undefined;
  const match = TOKEN.exec(token);
  if (match === null) return undefined;
  const [, nonce = '', issued = '', mac = ''] = match;
  const issuedMs = Number.parseInt(issued, 36) * 1000;
  if (!(issuedMs <= nowMs + CLOCK_SKEW_MS && nowMs - issuedMs <= keys.maxAgeMs)) return undefined;
  const given = Buffer.from(mac);
  for (const secret of keys.secrets) {
    const expected = Buffer.from(macOf(secret, binding, nonce, issued));
    if (expected.length === given.length && timingSafeEqual(expected, given)) return nonce;
  }
  return undefined;
}
