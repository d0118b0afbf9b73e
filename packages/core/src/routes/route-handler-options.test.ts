import { describe, expect, it } from 'vitest';
import { isDcbError } from '../errors/dcb-error.js';
import { checkGateOptions, checkRouteHandlerOptions } from './route-handler-options.js';

const routes = { checkout: () => undefined };
const account = () => 'user_1';

function refusal(check: () => void) {
  try {
    check();
  } catch (error) {
    return error as Error & { code: string; details: Record<string, unknown> };
  }
  throw new Error('expected a refusal');
}

describe('checkRouteHandlerOptions', () => {
  it('passes every option an adapter takes', () => {
    const render = () => undefined;
    expect(() =>
      checkRouteHandlerOptions('createMyRoutes', {
        routes,
        signedInAccount: account,
        sessionId: account,
        render,
        renderError: render,
        offersPage: '/offers',
      }),
    ).not.toThrow();
    expect(() =>
      checkRouteHandlerOptions(
        'createNextHandlers',
        { kit: () => ({}), signedInAccount: account },
        { routesFrom: 'kit' },
      ),
    ).not.toThrow();
  });

  it('names a renamed option’s replacement, with the unknown_option code', () => {
    const error = refusal(() => checkRouteHandlerOptions('createMyRoutes', { routes, accountKey: account }));
    expect(isDcbError(error, 'unknown_option')).toBe(true);
    expect(error.details).toEqual({ option: 'accountKey', replacement: 'signedInAccount' });
    expect(error.message).toMatch(
      /^createMyRoutes: accountKey is not an option any more: it was renamed signedInAccount\./,
    );
  });

  it('lists the options there are for any other unknown one', () => {
    const error = refusal(() =>
      checkRouteHandlerOptions('createMyRoutes', { routes, signedInAccount: account, session: account }),
    );
    expect(error.code).toBe('unknown_option');
    expect(error.details).toEqual({ option: 'session', nearest: 'sessionId' });
    expect(error.message).toBe(
      'createMyRoutes: session is not an option. Did you mean sessionId? The options are routes, signedInAccount, sessionId, render, renderError and offersPage.',
    );
    // Next's handlers take the kit, not the routes.
    const next = refusal(() =>
      checkRouteHandlerOptions(
        'createNextHandlers',
        { routes, signedInAccount: account },
        { routesFrom: 'kit' },
      ),
    );
    expect(next.message).toContain('The options are kit, signedInAccount');
  });

  it('refuses missing or mistyped options with invalid_option, naming each', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ signedInAccount: account }, 'routes'],
      [{ routes: { ...routes, checkout: 'x' }, signedInAccount: account }, 'routes'],
      [{ routes }, 'signedInAccount'],
      [{ routes, signedInAccount: 'user_1' }, 'signedInAccount'],
      [{ routes, signedInAccount: account, sessionId: 'sid' }, 'sessionId'],
      [{ routes, signedInAccount: account, render: {} }, 'render'],
      [{ routes, signedInAccount: account, renderError: true }, 'renderError'],
      [{ routes, signedInAccount: account, offersPage: '' }, 'offersPage'],
    ];
    for (const [options, option] of cases) {
      const error = refusal(() => checkRouteHandlerOptions('createMyRoutes', options));
      expect(error.code, option).toBe('invalid_option');
      expect(error.details, option).toEqual({ option });
      expect(error.message.startsWith(`createMyRoutes: ${option} `), error.message).toBe(true);
    }
    expect(refusal(() => checkRouteHandlerOptions('createMyRoutes', undefined)).code).toBe('invalid_option');
  });
});

describe('checkGateOptions', () => {
  it('passes none, or signedInAccount and redirectTo', () => {
    expect(() => checkGateOptions('requireAccess', undefined)).not.toThrow();
    expect(() => checkGateOptions('requireAccess', {})).not.toThrow();
    expect(() =>
      checkGateOptions('requireAccess', { signedInAccount: account, redirectTo: '/offers' }),
    ).not.toThrow();
  });

  it('refuses the old accountKey, an unknown option and mistyped ones', () => {
    const renamed = refusal(() => checkGateOptions('requireAccess', { accountKey: account }));
    expect(renamed.code).toBe('unknown_option');
    expect(renamed.details).toEqual({ option: 'accountKey', replacement: 'signedInAccount' });
    expect(refusal(() => checkGateOptions('requireAccess', { offersPage: '/x' })).message).toContain(
      'The options are signedInAccount and redirectTo.',
    );
    expect(refusal(() => checkGateOptions('requireAccess', { signedInAccount: 'u' })).code).toBe(
      'invalid_option',
    );
    expect(refusal(() => checkGateOptions('requireAccess', { redirectTo: 3 })).code).toBe('invalid_option');
  });
});
