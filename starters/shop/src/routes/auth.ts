import { randomBytes } from 'node:crypto';
import { DEMO_ACCOUNTS, findDemoAccount } from '../accounts.js';
import type { Views } from '../views.js';
import { seeOther } from '../web/shop-answer.js';
import type { ShopRequest } from '../web/shop-request.js';
import type { Handler, ShopRoute } from '../web/shop-route.js';
import { localPath, sameOriginOnly } from './same-origin.js';

/** The signed-in account's id: the kit's account key, written into every payment's metadata. */
export function accountKeyOf(request: ShopRequest): string | undefined {
  return findDemoAccount(request.session.read().accountId)?.id;
}

/** Sends visitors who are not signed in to the sign-in page, and back here afterwards. */
export const requireSignIn: Handler = (request) =>
  accountKeyOf(request) === undefined
    ? seeOther(`/sign-in?${new URLSearchParams({ next: request.url })}`)
    : undefined;

/** Sign-in with demo accounts. Replace it with your own users; keep the account id stable. */
export function authRoutes({ views, shopOrigin }: { views: Views; shopOrigin: string }): ShopRoute[] {
  return [
    {
      method: 'GET',
      path: '/sign-in',
      handle: (request) =>
        views.render(request, 'sign-in', { accounts: DEMO_ACCOUNTS, next: localPath(request.query.next) }),
    },
    {
      method: 'POST',
      path: '/sign-in',
      guards: [sameOriginOnly(shopOrigin)],
      handle: (request) => {
        const { form } = request;
        const account = findDemoAccount(form.accountId);
        if (account === undefined) {
          return views.render(
            request,
            'sign-in',
            { accounts: DEMO_ACCOUNTS, next: localPath(form.next) },
            400,
          );
        }
        request.session.update({ accountId: account.id, signInId: randomBytes(16).toString('base64url') });
        return seeOther(localPath(form.next));
      },
    },
    {
      method: 'POST',
      path: '/sign-out',
      guards: [sameOriginOnly(shopOrigin)],
      handle: (request) => {
        const { lang } = request.session.read();
        // Keep the chosen language: it is not the account's.
        request.session.clear(lang !== undefined ? { lang } : undefined);
        return seeOther('/');
      },
    },
  ];
}
