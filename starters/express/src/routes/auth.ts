import { randomBytes } from 'node:crypto';
import { type Request, type RequestHandler, Router } from 'express';
import { DEMO_ACCOUNTS, findDemoAccount } from '../accounts.js';
import { localPath, sameOriginOnly } from '../same-origin.js';
import { clearSession, sessionOf, updateSession } from '../session.js';
import type { Views } from '../views.js';

/** The signed-in account's id: the kit's account key, written into every payment's metadata. */
export function accountKeyOf(req: Request): string | undefined {
  return findDemoAccount(sessionOf(req).accountId)?.id;
}

/** Sends visitors who are not signed in to the sign-in page, and back here afterwards. */
export const requireSignIn: RequestHandler = (req, res, next) => {
  if (accountKeyOf(req) !== undefined) return next();
  res.redirect(303, `/sign-in?${new URLSearchParams({ next: req.originalUrl })}`);
};

/** Sign-in with demo accounts. Replace it with your own users; keep the account id stable. */
export function authRoutes({ views, shopOrigin }: { views: Views; shopOrigin: string }): Router {
  const router = Router();

  router.get('/sign-in', (req, res) => {
    views.render(req, res, 'sign-in', { accounts: DEMO_ACCOUNTS, next: localPath(req.query.next) });
  });

  router.post('/sign-in', sameOriginOnly(shopOrigin), (req, res) => {
    const account = findDemoAccount(req.body?.accountId);
    if (account === undefined) {
      views.render(req, res, 'sign-in', { accounts: DEMO_ACCOUNTS, next: localPath(req.body?.next) }, 400);
      return;
    }
    updateSession(req, { accountId: account.id, signInId: randomBytes(16).toString('base64url') });
    res.redirect(303, localPath(req.body?.next));
  });

  router.post('/sign-out', sameOriginOnly(shopOrigin), (req, res) => {
    const { lang } = sessionOf(req);
    clearSession(req);
    // Keep the chosen language: it is not the account's.
    if (lang !== undefined) req.session = { lang };
    res.redirect(303, '/');
  });

  return router;
}
