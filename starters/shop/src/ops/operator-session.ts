import { randomBytes } from 'node:crypto';
import type { ShopSession } from '../session.js';

/** The account key the operator's form tokens are bound to (with the operator session's id). */
export const OPERATOR_FORM_ACCOUNT = 'operator';

/** An operator sign-in lasts a working day; then the password is asked again. */
export const OPERATOR_SESSION_MS = 12 * 60 * 60 * 1000;

/**
 * What the session keeps of an operator sign-in: `id`, random per sign-in, which the operator's
 * form tokens are bound to, and `since`, when it began (ms since the epoch, this server's clock).
 */
export type OperatorSession = NonNullable<ShopSession['operator']>;

export function newOperatorSession(nowMs: number): OperatorSession {
  return { id: randomBytes(16).toString('base64url'), since: nowMs };
}

/**
 * The id of the operator signed in on this session, or undefined: not signed in as operator, or
 * signed in too long ago. The demo accounts never make an operator: this is a separate sign-in.
 */
export function operatorIdOf(session: ShopSession, nowMs: number): string | undefined {
  const operator = session.operator;
  if (typeof operator?.id !== 'string' || typeof operator.since !== 'number') return undefined;
  if (operator.since > nowMs || nowMs - operator.since > OPERATOR_SESSION_MS) return undefined;
  return operator.id;
}
