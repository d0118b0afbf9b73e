import { describe, expect, it } from 'vitest';
import { offers } from '../test-support/fixtures.js';
import { createDcbKit, type DcbKitConfig } from './create-dcb-kit.js';

const client = {
  environment: 'sandbox',
  baseUrl: 'http://127.0.0.1:1',
  clientId: 'svc_test_x',
  clientSecret: 's',
} as const;

function kitWith(config: Partial<DcbKitConfig>) {
  return createDcbKit({
    client,
    webhookSecrets: 'whsec_old',
    offers,
    returnUrl: 'https://shop.example/return',
    ...config,
  });
}

const post = (token: string) => ({
  accountKey: 'alice',
  method: 'POST',
  fields: { offerUid: 'off_unknown', token },
  request: { origin: 'https://shop.example', secFetchSite: 'same-origin', simpleBody: true },
});

describe('createDcbKit: every option checked at once', () => {
  it('refuses an option it does not know, naming the nearest one (issue 54)', () => {
    expect(() => kitWith({ histroyRetentionDays: 30 } as Partial<DcbKitConfig>)).toThrow(
      expect.objectContaining({
        code: 'unknown_option',
        details: { option: 'histroyRetentionDays', nearest: 'historyRetentionDays' },
        message: expect.stringContaining('Did you mean historyRetentionDays?'),
      }),
    );
    // An options object of the client inside the config is the client's to check.
    expect(() => kitWith({ client: { ...client, retries: 2 } as never })).toThrow(
      expect.objectContaining({
        code: 'unknown_option',
        details: { option: 'retries', nearest: 'maxRetries' },
        message: expect.stringMatching(/^createClient: retries is not an option/),
      }),
    );
  });

  it.each(['javascript:alert(1)', '/billing/return', 'billing/return', 'data:text/html,x'])(
    'refuses returnUrl %j when the kit is made, not when routes are first read',
    (returnUrl) => {
      expect(() => kitWith({ returnUrl })).toThrow(
        expect.objectContaining({ code: 'invalid_option', details: { option: 'returnUrl' } }),
      );
    },
  );

  it('refuses an ftp: returnUrl without origins to allow, at once', () => {
    expect(() => kitWith({ returnUrl: 'ftp://shop.example/return' })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });

  it('refuses a checkoutBaseUrl that is not an http(s) URL, at once', () => {
    expect(() => kitWith({ checkoutBaseUrl: 'javascript:alert(1)' })).toThrow(
      expect.objectContaining({ code: 'invalid_option', details: { option: 'checkoutBaseUrl' } }),
    );
  });
});

describe('createDcbKit: form tokens across a webhook secret rotation', () => {
  it('old and new instances accept each other’s forms while both secrets are configured', async () => {
    const before = kitWith({ webhookSecrets: 'whsec_old' }).routes;
    const during = kitWith({ webhookSecrets: ['whsec_new', 'whsec_old'] }).routes;
    // Past the form token: refused for the unknown offer, not as cross-site.
    await expect(during.checkout(post(before.formToken('alice')))).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(before.checkout(post(during.formToken('alice')))).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('keeps every form valid across any rotation with a dedicated formSecret', async () => {
    const before = kitWith({ webhookSecrets: 'whsec_old', formSecret: 'form_key' }).routes;
    const after = kitWith({ webhookSecrets: 'whsec_new', formSecret: 'form_key' }).routes;
    await expect(after.checkout(post(before.formToken('alice')))).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('refuses a form of another webhook secret', async () => {
    const other = kitWith({ webhookSecrets: 'whsec_other' }).routes;
    const own = kitWith({}).routes;
    await expect(own.checkout(post(other.formToken('alice')))).rejects.toMatchObject({
      code: 'cross_site_request',
    });
  });
});
