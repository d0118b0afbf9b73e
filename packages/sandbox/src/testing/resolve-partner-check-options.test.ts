import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../start/start-sandbox.js';
import { startTestSandbox } from '../test-support/sandbox-fixture.js';
import { PartnerCheckError } from './partner-check-error.js';
import type { PartnerCheckOptions } from './partner-check-options.js';
import { resolvePartnerCheckOptions } from './resolve-partner-check-options.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const valid = (): PartnerCheckOptions => ({
  sandbox,
  appUrl: 'http://127.0.0.1:3000',
  signIn: (accountKey) => ({ 'x-account': accountKey }),
});

function refusal(options: unknown): PartnerCheckError {
  try {
    resolvePartnerCheckOptions(options as PartnerCheckOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(PartnerCheckError);
    expect(error).toMatchObject({ name: 'PartnerCheckError', code: 'invalid_partner_check_options' });
    return error as PartnerCheckError;
  }
  throw new Error('expected invalid_partner_check_options');
}

describe('resolvePartnerCheckOptions', () => {
  it("needs no signIn when the check makes the purchases itself (a webhook receiver's)", () => {
    const { signIn: _signIn, ...base } = valid();
    const resolved = resolvePartnerCheckOptions({
      ...base,
      purchaseThrough: 'service',
      products: [
        { offerUid: 'offer_day_pass', gatePath: '/access?account={accountKey}&product={productUid}' },
      ],
    });
    expect(resolved.purchaseThrough).toBe('service');
    expect(resolved.signIn).toBeUndefined();
    expect(resolved.products[0]?.gatePath).toBe('/access?account={accountKey}&product={productUid}');
  });

  it('fills in the defaults that fit the dcbkit starters', () => {
    const resolved = resolvePartnerCheckOptions(valid());
    expect(resolved.appUrl.href).toBe('http://127.0.0.1:3000/');
    expect(resolved.paths).toEqual({
      webhook: '/webhooks/dcb',
      checkout: '/checkout',
      offersPage: '/',
      accountPage: '/account',
    });
    expect(resolved.accounts).toEqual({
      renewing: 'partner-check-renewing',
      lapsing: 'partner-check-lapsing',
      expiring: 'partner-check-expiring',
    });
    expect(resolved.products).toEqual([
      {
        offerUid: 'offer_premium_monthly',
        productUid: 'prod_premium',
        type: 'SUBSCRIPTION',
        gracePolicy: { days: 3, accessDuringGrace: true },
        gatePath: '/premium',
        spendPath: undefined,
      },
      expect.objectContaining({
        offerUid: 'offer_day_pass',
        type: 'CONSUMABLE',
        spendPath: '/account/passes/prod_day_pass/use',
      }),
      expect.objectContaining({ offerUid: 'offer_full_unlock', type: 'NON_CONSUMABLE', gatePath: undefined }),
    ]);
    expect([resolved.seed, resolved.requestTimeoutMs, resolved.formFields]).toEqual([1, 10_000, undefined]);
  });

  it('keeps a base path of the app URL and drops its trailing slash, query and fragment', () => {
    expect(
      resolvePartnerCheckOptions({ ...valid(), appUrl: 'http://localhost:8080/shop/?x=1#top' }).appUrl.href,
    ).toBe('http://localhost:8080/shop');
  });

  // Each case edits valid options, built once the sandbox runs.
  const cases: Array<[string, (base: PartnerCheckOptions) => unknown, RegExp]> = [
    ['no options', () => undefined, /options are required/],
    [
      'no sandbox',
      (base) => ({ ...base, sandbox: { apiBaseUrl: 'http://127.0.0.1:1' } }),
      /sandbox must be the running sandbox/,
    ],
    [
      'no signIn',
      (base) => ({ ...base, signIn: 'x-account' }),
      /signIn\(accountKey\) must return the headers/,
    ],
    [
      'no signIn for purchases through the app',
      ({ signIn: _signIn, ...base }) => base,
      /or pass purchaseThrough: 'service'/,
    ],
    ['an unknown appClock', (base) => ({ ...base, appClock: 'wall' }), /appClock must be 'sandbox' or 'own'/],
    [
      'an unknown purchaseThrough',
      (base) => ({ ...base, purchaseThrough: 'browser' }),
      /purchaseThrough must be 'app' or 'service'/,
    ],
    [
      'a formFields that is no function',
      (base) => ({ ...base, formFields: { token: 't' } }),
      /formFields, when given/,
    ],
    [
      'an app URL that is no URL',
      (base) => ({ ...base, appUrl: 'my app' }),
      /appUrl must be your app's base URL/,
    ],
    [
      'an app URL beyond this machine',
      (base) => ({ ...base, appUrl: 'https://shop.example' }),
      /must be on this machine/,
    ],
    ['an app URL that is not http', (base) => ({ ...base, appUrl: 'ftp://127.0.0.1' }), /http\(s\) URL/],
    [
      'a path without its slash',
      (base) => ({ ...base, paths: { checkout: 'checkout' } }),
      /paths\.checkout must be a path/,
    ],
    [
      'a path to another host',
      (base) => ({ ...base, paths: { webhook: '//evil.example/hook' } }),
      /paths\.webhook/,
    ],
    ['no products', (base) => ({ ...base, products: [] }), /at least one offer/],
    [
      'an offer the sandbox does not sell',
      (base) => ({ ...base, products: [{ offerUid: 'offer_nope' }] }),
      /"offer_nope" is not an offer of the sandbox's config \(offer_premium_monthly, /,
    ],
    [
      'two offers of one product',
      (base) => ({
        ...base,
        products: [{ offerUid: 'offer_premium_monthly' }, { offerUid: 'offer_premium_monthly_paid' }],
      }),
      /offer_premium_monthly and offer_premium_monthly_paid sell the same product prod_premium/,
    ],
    [
      'a spend path on an offer that has no units',
      (base) => ({ ...base, products: [{ offerUid: 'offer_full_unlock', spendPath: '/use' }] }),
      /spendPath is for a CONSUMABLE offer; offer_full_unlock is NON_CONSUMABLE/,
    ],
    [
      'accounts that are not an object',
      (base) => ({ ...base, accounts: 'alice' }),
      /accounts must be an object/,
    ],
    [
      'an empty account',
      (base) => ({ ...base, accounts: { lapsing: '' } }),
      /accounts\.lapsing must be a non-empty/,
    ],
    [
      'one account in two roles',
      (base) => ({ ...base, accounts: { renewing: 'alice', lapsing: 'alice' } }),
      /three different accounts/,
    ],
    ['a seed out of range', (base) => ({ ...base, seed: -1 }), /seed must be a whole number/],
    ['a timeout of zero', (base) => ({ ...base, requestTimeoutMs: 0 }), /requestTimeoutMs must be/],
  ];
  it.each(cases)('refuses %s with invalid_partner_check_options', (_case, edit, message) => {
    expect(refusal(edit(valid())).message).toMatch(message);
  });
});
