import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { DEMO_ACCOUNTS, findDemoAccount } from '../accounts.js';
import { seeOther } from '../redirect.js';
import { localPath, sameOriginOnly } from '../same-origin.js';
import { clearSession, sessionOf, updateSession } from '../session.js';
import type { Views } from '../views.js';

/** The signed-in account's id: the kit's account key, written into every payment's metadata. */
export function accountKeyOf(ctx: Context): string | undefined {
  return findDemoAccount(sessionOf(ctx).accountId)?.id;
}

/** Sends visitors who are not signed in to the sign-in page, and back here afterwards. */
export const requireSignIn: Middleware = async (ctx, next) => {
  if (accountKeyOf(ctx) !== undefined) return next();
  seeOther(ctx, `/sign-in?${new URLSearchParams({ next: ctx.originalUrl })}`);
};

/** The posted form's fields (@koa/bodyparser fills ctx.request.body). */
export function formOf(ctx: Context): Record<string, unknown> {
  const { body } = ctx.request;
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

/** Sign-in with demo accounts. Replace it with your own users; keep the account id stable. */
export function authRoutes({ views, shopOrigin }: { views: Views; shopOrigin: string }): Router {
  const router = new Router();

  router.get('/sign-in', (ctx) => {
    views.render(ctx, 'sign-in', { accounts: DEMO_ACCOUNTS, next: localPath(ctx.query.next) });
  });

  router.post('/sign-in', sameOriginOnly(shopOrigin), (ctx) => {
    const form = formOf(ctx);
    const account = findDemoAccount(form.accountId);
    if (account === undefined) {
      views.render(ctx, 'sign-in', { accounts: DEMO_ACCOUNTS, next: localPath(form.next) }, 400);
      return;
    }
    updateSession(ctx, { accountId: account.id, signInId: randomBytes(16).toString('base64url') });
    seeOther(ctx, localPath(form.next));
  });

  router.post('/sign-out', sameOriginOnly(shopOrigin), (ctx) => {
    const { lang } = sessionOf(ctx);
    // Keep the chosen language: it is not the account's.
    clearSession(ctx, lang !== undefined ? { lang } : undefined);
    seeOther(ctx, '/');
  });

  return router;
}
