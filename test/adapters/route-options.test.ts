/**
 * Issue 38: an adapter given an option it does not know (the old `accountKey` instead of
 * `signedInAccount`) used to start, then fail at the first request with "options.signedInAccount
 * is not a function". Every adapter's route maker now refuses it when the routes are made, with
 * a message that names the option and its replacement (core's one check, checkRouteHandlerOptions).
 */
import { isDcbError } from '@dcbkit/core';
import { createFetchRoutes } from '@dcbkit/core/web';
import { createExpressRoutes } from '@dcbkit/express';
import { createFastifyRoutes } from '@dcbkit/fastify';
import { createHonoRoutes } from '@dcbkit/hono';
import { createKoaRoutes } from '@dcbkit/koa';
import { createNextHandlers } from '@dcbkit/next';
import { describe, expect, it } from 'vitest';
import { offlineKit } from '../../packages/core/src/test-support/offline-kit.js';

const kit = offlineKit({ returnUrl: 'https://shop.example/billing/return' });

type Options = Record<string, unknown>;
interface Gate {
  requireAccess(productUid: string, gate?: Options): unknown;
}

// Options as a JavaScript app (or one written against an older README) hands them over: untyped.
const MAKERS: ReadonlyArray<[string, (options: Options) => Gate]> = [
  ['createExpressRoutes', (options) => createExpressRoutes(options as never)],
  ['createKoaRoutes', (options) => createKoaRoutes(options as never)],
  ['createFastifyRoutes', (options) => createFastifyRoutes(options as never)],
  ['createHonoRoutes', (options) => createHonoRoutes(options as never)],
  ['createFetchRoutes', (options) => createFetchRoutes(options as never)],
  [
    'createNextHandlers',
    ({ routes: _routes, ...options }) => createNextHandlers({ kit: () => kit, ...options } as never),
  ],
];

function refusal(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  throw new Error('expected the options to be refused');
}

const account = () => 'user_1';

describe.each(MAKERS)('%s: options checked when the routes are made', (maker, make) => {
  it('the old accountKey: refused at once, naming signedInAccount, its replacement', () => {
    const error = refusal(() => make({ routes: kit.routes, accountKey: account }));
    expect(isDcbError(error, 'unknown_option')).toBe(true);
    expect(error).toMatchObject({ details: { option: 'accountKey', replacement: 'signedInAccount' } });
    expect((error as Error).message).toContain(`${maker}: accountKey is not an option any more`);
    expect((error as Error).message).toContain('renamed signedInAccount');
  });

  it('a misspelt option: refused, with the options there are', () => {
    const error = refusal(() => make({ routes: kit.routes, signedInAccount: account, offerPage: '/offers' }));
    expect(isDcbError(error, 'unknown_option')).toBe(true);
    expect((error as Error).message).toContain(`${maker}: offerPage is not an option`);
    expect((error as Error).message).toContain('offersPage');
  });

  it('no signedInAccount, or one that is not a function: invalid_option naming it', () => {
    for (const signedInAccount of [undefined, 'user_1']) {
      const error = refusal(() => make({ routes: kit.routes, signedInAccount }));
      expect(isDcbError(error, 'invalid_option')).toBe(true);
      expect(error).toMatchObject({ details: { option: 'signedInAccount' } });
      expect((error as Error).message).toContain(`${maker}: signedInAccount must be a function`);
    }
  });

  it('requireAccess with the old accountKey: refused when the gate is made, not at the first request', () => {
    const routes = make({ routes: kit.routes, signedInAccount: account, offersPage: '/offers' });
    expect(() => routes.requireAccess('prod_premium')).not.toThrow();
    const error = refusal(() => routes.requireAccess('prod_premium', { accountKey: account }));
    expect(isDcbError(error, 'unknown_option')).toBe(true);
    expect(error).toMatchObject({ details: { option: 'accountKey', replacement: 'signedInAccount' } });
  });
});

it('createExpressRoutes, createKoaRoutes…: the routes themselves must be the kit’s', () => {
  const error = refusal(() => createExpressRoutes({ routes: kit, signedInAccount: account } as never));
  expect(isDcbError(error, 'invalid_option')).toBe(true);
  expect((error as Error).message).toContain('routes: kit.routes');
});
