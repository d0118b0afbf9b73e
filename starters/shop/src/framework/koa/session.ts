import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
import createSession from 'koa-session';
import { SESSION_COOKIE, type SessionCookie, type SessionHandle, type ShopSession } from '../../session.js';

/**
 * The signed session cookie (koa-session: the whole session in the cookie, no server store). It
 * signs with the app's keys, so this sets `app.keys` to the secret.
 */
export function sessionMiddleware(app: Koa, { secret, secure }: SessionCookie): Middleware {
  app.keys = [secret];
  const { name, ...flags } = SESSION_COOKIE;
  return createSession({ key: name, secure, ...flags }, app);
}

/** koa-session adds `ctx.session` without declaring it to TypeScript: this is its shape here. */
type WithSession = { session: ShopSession | null | undefined };

/** The request's session, as the shop reads and writes it. */
export function sessionHandleOf(ctx: Context): SessionHandle {
  const holder = ctx as unknown as WithSession;
  return {
    read: () => holder.session ?? {},
    update: (fields) => {
      if (holder.session) Object.assign(holder.session, fields);
    },
    // koa-session: null removes the cookie; a new object replaces the session.
    clear: (kept) => {
      holder.session = kept ?? null;
    },
  };
}
