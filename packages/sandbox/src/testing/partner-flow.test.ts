/**
 * A partner's integration test, as docs/sandbox.md shows it: only the published
 * `@dcbkit/sandbox/testing` and `@dcbkit/core`'s partner API, no repo internals.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type DcbClient, type WebhookEvent } from '@dcbkit/core';
import { verifyWebhook } from '@dcbkit/core/webhooks';
import { createCheckoutDriver, createClock, type Sandbox, startSandbox } from '@dcbkit/sandbox/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let sandbox: Sandbox;
let client: DcbClient;
let closeReceiver: () => Promise<void>;
const events: WebhookEvent[] = [];

beforeAll(async () => {
  // The partner's webhook endpoint: verify on the raw body, answer 2xx.
  const receiver = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    events.push(
      verifyWebhook({
        rawBody: Buffer.concat(chunks),
        signature: request.headers['service-signature'],
        secrets: sandbox.credentials.webhookSecret,
      }),
    );
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  closeReceiver = () => new Promise((resolve) => receiver.close(() => resolve()));
  sandbox = await startSandbox({
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`,
    clock: createClock({ start: '2030-01-01T00:00:00Z', frozen: true }),
  });
  client = createClient({ environment: 'sandbox', baseUrl: sandbox.apiBaseUrl, ...sandbox.credentials });
});

afterAll(async () => {
  await sandbox.close();
  await closeReceiver();
});

const checkout = () => createCheckoutDriver(sandbox);
const buy = (offerUid: string) =>
  client.payments.create({ mode: 'HOSTED', offerUid, returnUrl: 'https://partner.example/thanks' });

describe('a partner tests its integration against the sandbox', () => {
  it.each(['PIN', 'HEADER_ENRICHMENT', 'MO_SMS'] as const)(
    'a subscriber pays by %s; the partner reads SUCCEEDED and gets payment.succeeded',
    async (method) => {
      const payment = await buy('offer_day_pass');
      const outcome = await checkout().pay(payment.checkoutUrl, { method });
      expect(outcome.returnUrl?.origin).toBe('https://partner.example');
      await expect(client.payments.retrieve(payment.paymentUid)).resolves.toMatchObject({
        status: 'SUCCEEDED',
        orderId: expect.stringMatching(/^ord_/),
      });
      await sandbox.deliverDue();
      expect(
        events.filter((event) => event.paymentUid === payment.paymentUid).map((event) => event.event),
      ).toEqual(['payment.succeeded']);
    },
  );

  it('a declined charge and an abandoned checkout end FAILED with payment.failed', async () => {
    const declined = await buy('offer_day_pass');
    await checkout().fail(declined.checkoutUrl, { because: 'DECLINED' });
    const abandoned = await buy('offer_full_unlock');
    await checkout().abandon(abandoned.checkoutUrl);
    for (const payment of [declined, abandoned]) {
      await expect(client.payments.retrieve(payment.paymentUid)).resolves.toMatchObject({ status: 'FAILED' });
    }
    await sandbox.deliverDue();
    const failed = events
      .filter((event) => event.event === 'payment.failed')
      .map((event) => event.paymentUid);
    expect(failed).toEqual(expect.arrayContaining([declined.paymentUid, abandoned.paymentUid]));
  });

  it('a trial converts once the partner moves the clock past it', async () => {
    const payment = await buy('offer_premium_monthly');
    await checkout().pay(payment.checkoutUrl, { method: 'PIN' });
    const paid = await client.payments.retrieve(payment.paymentUid);
    const subscriptionUid = (paid as { subscriptionUid?: string }).subscriptionUid ?? '';
    await expect(client.subscriptions.retrieve(subscriptionUid)).resolves.toMatchObject({
      status: 'TRIALING',
    });
    await checkout().advanceClock(8 * 86_400);
    // Tokens last an hour of sandbox time: a fresh client after moving the clock by days.
    const later = createClient({
      environment: 'sandbox',
      baseUrl: sandbox.apiBaseUrl,
      ...sandbox.credentials,
    });
    await expect(later.subscriptions.retrieve(subscriptionUid)).resolves.toMatchObject({ status: 'ACTIVE' });
  });
});

describe('a partner rehearses going live', () => {
  it('approve() issues the production credentials, the secret shown in that answer only; the driver pays there', async () => {
    const production = sandbox.environments.production;
    expect(production.isLive()).toBe(false);
    const credentials = production.approve();
    const live = createClient({ environment: 'production', baseUrl: production.apiBaseUrl, ...credentials });
    const payment = await live.payments.create({
      mode: 'HOSTED',
      offerUid: 'offer_day_pass',
      returnUrl: 'https://partner.example/thanks',
    });
    await createCheckoutDriver(production).pay(payment.checkoutUrl);
    await expect(live.payments.retrieve(payment.paymentUid)).resolves.toMatchObject({ status: 'SUCCEEDED' });
    expect(() => production.approve()).toThrow(
      expect.objectContaining({ name: 'SandboxError', code: 'already_approved' }),
    );
  });
});
