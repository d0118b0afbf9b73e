import cookieSession from 'cookie-session';
import type { Request, RequestHandler } from 'express';
import { SESSION_COOKIE, type SessionCookie, type SessionHandle, type ShopSession } from '../../session.js';

/** The signed session cookie (cookie-session: the whole session in the cookie, HMAC-signed, no server store). */
export function sessionMiddleware({ secret, secure }: SessionCookie): RequestHandler {
  const { name, ...flags } = SESSION_COOKIE;
  return cookieSession({ name, keys: [secret], secure, ...flags });
}

/** The request's session, as the shop reads and writes it. */
export function sessionHandleOf(req: Request): SessionHandle {
  return {
    read: () => (req.session ?? {}) as ShopSession,
    update: (fields) => {
      if (req.session) Object.assign(req.session, fields);
    },
    // cookie-session: null removes the cookie; a new object replaces the session.
    clear: (kept) => {
      req.session = kept ?? null;
    },
  };
}
