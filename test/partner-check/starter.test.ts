import { runPartnerCheck } from '@dcbkit/sandbox/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ShopUnderTest,
  shopUnderTest,
} from '../../starters/express/src/test-support/shop-under-test.js';

let shop: ShopUnderTest | undefined;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
});

describe('the partner check against the Express starter, with its defaults', () => {
  it('passes: sign-in by session cookie, forms read from its pages, its embedded sandbox on a real clock', async () => {
    shop = await shopUnderTest();
    const { url, billing } = shop;
    if (billing.sandbox === undefined) throw new Error('the starter runs on its embedded sandbox in tests');

    const report = await runPartnerCheck({
      sandbox: billing.sandbox,
      appUrl: url,
      // The starter's sign-in page: a same-origin form post that sets the session cookie.
      signIn: async (accountKey) => {
        const signedIn = await fetch(`${url}/sign-in`, {
          method: 'POST',
          headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
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
      accounts: { renewing: 'demo-amira', lapsing: 'demo-youssef', expiring: 'demo-lea' },
    });

    expect(report.checks.map((check) => [check.name, check.outcome])).toEqual([
      ['checkout', 'passed'],
      ['signature', 'passed'],
      ['duplicates', 'passed'],
      ['delivery', 'passed'],
      ['units', 'passed'],
      ['access-gate', 'passed'],
    ]);
  });
});
