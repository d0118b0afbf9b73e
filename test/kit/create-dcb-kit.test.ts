/**
 * The front door: one configuration gives routes and a webhook handler that agree on the account
 * key, the store and the offers, whatever metadata field the partner chose.
 */
import type { RequestListener } from 'node:http';
import { createDcbKit } from '@dcbkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { payOnCheckout } from '../support/checkout-driver.js';
import { listen } from '../support/listen.js';
import { APP_VARIANTS, accountHeader } from '../support/partner-apps.js';
import { createPartnerKit } from '../support/partner-kit.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('createDcbKit', () => {
  it('writes and reads the same metadata field: a checkout paid on the sandbox grants the signed-in account', async () => {
    const sandbox = await startTestSandbox();
    cleanups.push(() => sandbox.close());
    let listener: RequestListener = (_req, res) => res.end();
    const app = await listen((req, res) => listener(req, res));
    cleanups.push(() => app.close());
    const kit = createPartnerKit(sandbox, `${app.url}/return`, { accountKeyField: 'userId' });
    listener = await (APP_VARIANTS[0] as (typeof APP_VARIANTS)[number]).build(kit, 'none');
    sandbox.setWebhookUrl(`${app.url}/webhooks/dcb`);

    const started = await fetch(`${app.url}/checkout`, {
      method: 'POST',
      headers: { [accountHeader]: 'user_42', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ offerUid: 'offer_full_unlock', token: kit.routes.formToken('user_42') }),
      redirect: 'manual',
    });
    const checkoutUrl = started.headers.get('location') ?? '';
    const paymentUid = checkoutUrl.split('/').pop() ?? '';
    expect((await kit.client.payments.retrieve(paymentUid)).metadata).toEqual({ userId: 'user_42' });

    // Only the webhook grants here (the return page is never opened).
    await payOnCheckout(sandbox, checkoutUrl);
    await sandbox.deliverDue();
    expect(await kit.store.get('user_42', 'prod_full_unlock')).toMatchObject({ status: 'ACTIVE' });
    // Not granted a second time under the subscriber's id, as a handler reading another field would.
    const { subscriberUid } = await kit.client.payments.retrieve(paymentUid);
    expect(subscriberUid).toBeDefined();
    expect(await kit.store.listByAccount(subscriberUid ?? '')).toEqual([]);
  });

  it('checks its configuration before anything starts', () => {
    const client = {
      environment: 'sandbox' as const,
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'svc_test_x',
      clientSecret: 's',
    };
    expect(() => createDcbKit({ client, webhookSecrets: '', offers: [] })).toThrow(
      expect.objectContaining({ code: 'invalid_option', details: { option: 'secrets' } }),
    );
    expect(() =>
      createDcbKit({ client: { ...client, clientId: 'svc_live_x' }, webhookSecrets: 'w', offers: [] }),
    ).toThrow(expect.objectContaining({ code: 'environment_mismatch' }));
    // A return URL that is not an absolute URL is refused at creation, with the rest.
    expect(() => createDcbKit({ client, webhookSecrets: 'w', offers: [], returnUrl: 'not a url' })).toThrow(
      expect.objectContaining({ code: 'invalid_option', details: { option: 'returnUrl' } }),
    );
    const kit = createDcbKit({ client, webhookSecrets: 'w', offers: [] });
    expect(() => kit.routes).toThrow(
      expect.objectContaining({ code: 'invalid_option', details: { option: 'returnUrl' } }),
    );
  });
});
