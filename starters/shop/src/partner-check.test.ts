// dcbkit's partner check (runPartnerCheck from @dcbkit/sandbox/testing): buys every offer through
// the shop's own pages, moves the sandbox's clock through renewals, a failed renewal, a webhook
// outage and its replays, delivers every event twice, out of order and indented, and checks the
// access gate and the units against what the service says at each step. When you change an offer
// or a route, or replace the demo sign-in, pass `products`, `paths` and your `signIn`.
import { runPartnerCheck } from '@dcbkit/sandbox/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningShop, startShop } from './start-shop.js';

let shop: RunningShop;

beforeAll(async () => {
  // No DCB_* variable: the shop on its embedded sandbox, whose clock its kit already uses.
  shop = await startShop({ env: {}, port: 0, logLevel: 'silent' });
});

afterAll(async () => {
  await shop.close();
});

it('passes the partner check', async () => {
  if (shop.sandbox === undefined) throw new Error('the shop runs its embedded sandbox without DCB_*');
  const report = await runPartnerCheck({
    sandbox: shop.sandbox,
    appUrl: shop.url,
    // The demo sign-in: a same-origin form post that sets the session cookie.
    signIn: async (accountKey) => {
      const signedIn = await fetch(`${shop.url}/sign-in`, {
        method: 'POST',
        headers: { origin: shop.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ accountId: accountKey }),
        redirect: 'manual',
      });
      return {
        cookie: signedIn.headers
          .getSetCookie()
          .map((cookie) => cookie.split(';')[0])
          .join('; '),
      };
    },
    // The sign-in knows only the demo accounts (src/accounts.ts): three that have bought nothing.
    accounts: { renewing: 'demo-amira', lapsing: 'demo-youssef', expiring: 'demo-lea' },
  });
  expect(report.passed).toBe(true);
}, 60_000);
