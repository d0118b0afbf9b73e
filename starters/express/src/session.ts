import cookieSession from 'cookie-session';
import type { Request, RequestHandler } from 'express';

/** What the shop keeps in its session cookie. Nothing secret: the cookie is signed, not encrypted. */
export interface ShopSession {
  /** The signed-in (demo) account. */
  accountId?: string;
  /** Random per sign-in: the kit binds form tokens to it, so a token from another sign-in is refused. */
  signInId?: string;
  /** The language chosen with the switcher. */
  lang?: string;
  /** A one-time notice for the next page, e.g. after a cancellation. */
  notice?: { key: string; values?: Record<string, string> };
  /** The operations view's own sign-in (ops/operator-session.ts), apart from the demo account's. */
  operator?: { id: string; since: number };
}

export interface SessionOptions {
  secret: string;
  /** False only when the shop is served over plain http on this machine. */
  secure: boolean;
}

/**
 * A signed cookie (HMAC with SESSION_SECRET), httpOnly so page scripts cannot read it, SameSite=Lax
 * so other sites' forms and frames do not carry it, Secure outside localhost.
 */
export function sessionMiddleware({ secret, secure }: SessionOptions): RequestHandler {
  return cookieSession({
    name: 'shop_session',
    keys: [secret],
    httpOnly: true,
    sameSite: 'lax',
    secure,
    signed: true,
    maxAge: 7 * 24 * 60 * 60 * 1000,
  });
}

/** The request's session, typed. Empty when there is none. */
export function sessionOf(req: Request): ShopSession {
  return (req.session ?? {}) as ShopSession;
}

/** Writes fields into the session (cookie-session sends the cookie again when it changed). */
export function updateSession(req: Request, fields: Partial<ShopSession>): void {
  if (req.session) Object.assign(req.session, fields);
}

/** Forgets everything: signing out. */
export function clearSession(req: Request): void {
  req.session = null;
}

/** Reads the notice once: it is gone on the next page. */
export function takeNotice(req: Request): ShopSession['notice'] {
  const { notice } = sessionOf(req);
  if (notice !== undefined && req.session) delete req.session.notice;
  return notice;
}

/** This sign-in's id (the adapter's `sessionId`): the kit binds form tokens to it. */
export function signInIdOf(req: Request): string | undefined {
  return sessionOf(req).signInId;
}
