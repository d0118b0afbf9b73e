import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
import createSession from 'koa-session';

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
 * so other sites' forms and frames do not carry it, Secure outside localhost. koa-session keeps
 * the whole session in the cookie (no server store) and signs it with the app's keys, so this
 * sets `app.keys` to the secret.
 */
export function sessionMiddleware(app: Koa, { secret, secure }: SessionOptions): Middleware {
  app.keys = [secret];
  return createSession(
    {
      key: 'shop_session',
      httpOnly: true,
      sameSite: 'lax',
      secure,
      signed: true,
      maxAge: 7 * 24 * 60 * 60 * 1000,
    },
    app,
  );
}

/** koa-session adds `ctx.session` without declaring it to TypeScript: this is its shape here. */
type WithSession = { session: ShopSession | null | undefined };
const holder = (ctx: Context) => ctx as unknown as WithSession;

/** The request's session, typed. Empty when there is none. */
export function sessionOf(ctx: Context): ShopSession {
  return holder(ctx).session ?? {};
}

/** Writes fields into the session (koa-session sends the cookie again when it changed). */
export function updateSession(ctx: Context, fields: Partial<ShopSession>): void {
  const { session } = holder(ctx);
  if (session) Object.assign(session, fields);
}

/** Forgets everything (signing out), keeping only `kept` when given. */
export function clearSession(ctx: Context, kept?: ShopSession): void {
  holder(ctx).session = kept ?? null;
}

/** Reads the notice once: it is gone on the next page. */
export function takeNotice(ctx: Context): ShopSession['notice'] {
  const { session } = holder(ctx);
  const notice = session?.notice;
  if (notice !== undefined && session) delete session.notice;
  return notice;
}

/** This sign-in's id (the adapter's `sessionId`): the kit binds form tokens to it. */
export function signInIdOf(ctx: Context): string | undefined {
  return sessionOf(ctx).signInId;
}
