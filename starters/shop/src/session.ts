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

/** The signed session cookie's fields, read and written through the framework's session middleware. */
export interface SessionHandle {
  /** The session's fields; empty when there is none. */
  read(): ShopSession;
  /** Writes fields (the middleware sends the cookie again when it changed). */
  update(fields: Partial<ShopSession>): void;
  /** Forgets every field (signing out), keeping only `kept` when given. */
  clear(kept?: ShopSession): void;
}

/** How the session cookie is made, whatever middleware signs it (src/framework/<name>/session.ts). */
export interface SessionCookie {
  /** SESSION_SECRET: signs the cookie (HMAC). */
  secret: string;
  /** False only when the shop is served over plain http on this machine. */
  secure: boolean;
}

/**
 * The session cookie's name and flags: signed, httpOnly so page scripts cannot read it,
 * SameSite=Lax so other sites' forms and frames do not carry it, and (SessionCookie.secure)
 * Secure outside localhost. A week long.
 */
export const SESSION_COOKIE = {
  name: 'shop_session',
  httpOnly: true,
  sameSite: 'lax',
  signed: true,
  maxAge: 7 * 24 * 60 * 60 * 1000,
} as const;

/** Reads the notice once: it is gone on the next page. */
export function takeNotice(request: { session: SessionHandle }): ShopSession['notice'] {
  const { notice } = request.session.read();
  if (notice !== undefined) request.session.update({ notice: undefined });
  return notice;
}

/** This sign-in's id (the adapter's `sessionId`): the kit binds form tokens to it. */
export function signInIdOf(request: { session: SessionHandle }): string | undefined {
  return request.session.read().signInId;
}
