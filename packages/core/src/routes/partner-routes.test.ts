import { describe, expect, it } from 'vitest';
import { createClient } from '../client/create-client.js';
import { defineOffers } from '../offers/define-offers.js';
import { memoryStore } from '../store/memory-store.js';
import { createPartnerRoutes, type PartnerRoutesOptions } from './partner-routes.js';

/** Options over a client that is never called. */
function partnerOptions(): PartnerRoutesOptions {
  return {
    client: createClient({
      environment: 'sandbox',
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'svc_test_x',
      clientSecret: 's',
    }),
    store: memoryStore(),
    offers: defineOffers([]),
    grantSucceededPayment: async () => ({ outcome: 'not_succeeded', entitlement: undefined }),
    returnUrl: 'https://shop.example/return',
  };
}

/** Routes over a client that is never called: these tests stop at the options and the cross-site guard. */
function routesWith(options: Pick<PartnerRoutesOptions, 'returnUrl' | 'allowedOrigins'>) {
  return createPartnerRoutes({
    client: createClient({
      environment: 'sandbox',
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'svc_test_x',
      clientSecret: 's',
    }),
    store: memoryStore(),
    offers: defineOffers([]),
    grantSucceededPayment: async () => ({ outcome: 'not_succeeded', entitlement: undefined }),
    ...options,
  });
}

/** A form post to checkout from a page of `origin`, with this account's form token. */
function checkoutFrom(routes: ReturnType<typeof routesWith>, origin: string) {
  return routes.checkout({
    accountKey: 'user_1',
    fields: { offerUid: 'offer_unknown', token: routes.formToken('user_1') },
    request: { origin, secFetchSite: 'same-site', simpleBody: true },
  });
}

const invalidOption = (option: string) =>
  expect.objectContaining({ code: 'invalid_option', details: { option } });

describe('createPartnerRoutes: its options', () => {
  it('refuses the old grantFromPayment, naming grantSucceededPayment, before any return page (issue 54)', () => {
    const { grantSucceededPayment, ...options } = partnerOptions();
    expect(() =>
      createPartnerRoutes({ ...options, grantFromPayment: grantSucceededPayment } as never),
    ).toThrow(
      expect.objectContaining({
        code: 'unknown_option',
        details: { option: 'grantFromPayment', replacement: 'grantSucceededPayment' },
        message: expect.stringMatching(
          /^createPartnerRoutes: grantFromPayment is not an option any more: it was renamed grantSucceededPayment\./,
        ),
      }),
    );
  });

  it('refuses a misspelt option, naming the nearest one', () => {
    expect(() => createPartnerRoutes({ ...partnerOptions(), formSecrets: ['k'] } as never)).toThrow(
      expect.objectContaining({
        code: 'unknown_option',
        details: { option: 'formSecrets', nearest: 'formSecret' },
      }),
    );
  });
});

describe('createPartnerRoutes: the return URL', () => {
  it('takes an http(s) return page and allows form posts from its origin only', async () => {
    const routes = routesWith({ returnUrl: 'https://shop.example/billing/return' });
    // Past the cross-site guard: refused for the unknown offer, not for where it came from.
    await expect(checkoutFrom(routes, 'https://shop.example')).rejects.toMatchObject({ code: 'not_found' });
    await expect(checkoutFrom(routes, 'https://evil.example')).rejects.toMatchObject({
      code: 'cross_site_request',
    });
  });

  it("takes an app's deep link, the spec's `uri`, with the origins that post given explicitly", async () => {
    const routes = routesWith({ returnUrl: 'myapp://done', allowedOrigins: ['https://shop.example'] });
    await expect(checkoutFrom(routes, 'https://shop.example')).rejects.toMatchObject({ code: 'not_found' });
    await expect(checkoutFrom(routes, 'https://evil.example')).rejects.toMatchObject({
      code: 'cross_site_request',
    });
    expect(() =>
      routesWith({ returnUrl: 'com.example.app:/billing/done', allowedOrigins: [] }),
    ).not.toThrow();
  });

  it('refuses a deep link without allowedOrigins: it has no web origin to derive them from', () => {
    expect(() => routesWith({ returnUrl: 'myapp://done' })).toThrow(invalidOption('allowedOrigins'));
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '/billing/return',
    'billing/return',
    'not a url',
    '',
  ])('refuses %j, even with allowedOrigins', (returnUrl) => {
    expect(() => routesWith({ returnUrl })).toThrow(invalidOption('returnUrl'));
    expect(() => routesWith({ returnUrl, allowedOrigins: ['https://shop.example'] })).toThrow(
      invalidOption('returnUrl'),
    );
  });
});
