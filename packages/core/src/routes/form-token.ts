import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// `<nonce>.<mac>`: the nonce makes each rendered form unique (it doubles as the checkout's
// idempotency nonce); the mac binds it to the signed-in account, so a page of another site
// cannot forge one for a victim's session.
const TOKEN = /^([A-Za-z0-9_-]{24})\.([A-Za-z0-9_-]{43})$/;

function macOf(secret: string, accountKey: string, nonce: string): string {
  return createHmac('sha256', secret).update(`dcbkit-form\n${accountKey}\n${nonce}`).digest('base64url');
}

/** A token to render into a state-changing form of this account (checkout, cancel, resume). */
export function createFormToken(secret: string, accountKey: string): string {
  const nonce = randomBytes(18).toString('base64url');
  return `${nonce}.${macOf(secret, accountKey, nonce)}`;
}

/** The token's nonce when it was made for this account with this secret; undefined otherwise. */
export function verifyFormToken(secret: string, accountKey: string, token: unknown): string | undefined {
  if (typeof token !== 'string') return undefined;
  const match = TOKEN.exec(token);
  if (match === null) return undefined;
  const [, nonce = '', mac = ''] = match;
  const expected = Buffer.from(macOf(secret, accountKey, nonce));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given) ? nonce : undefined;
}
