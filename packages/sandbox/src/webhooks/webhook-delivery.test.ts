import { paymentSchema } from '@dcbkit/core/schemas';
import { SIGNATURE_HEADER, verifyWebhook } from '@dcbkit/core/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxConfig } from '../config/config-schema.js';
import type { Sandbox } from '../start/start-sandbox.js';
import {
  apiGet,
  apiPost,
  createPayment,
  dataOf,
  expectApiError,
  getToken,
  paymentBody,
} from '../test-support/api-client.js';
import { startTestSandbox } from '../test-support/sandbox-fixture.js';
import {
  type ReceiverBehaviour,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../test-support/webhook-receiver.js';
import { CheckoutBrowser } from '../testing/checkout-browser.js';
import type { WebhookDelivery } from './delivery-record.js';

let sandbox: Sandbox;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await sandbox.close();
  await receiver?.close();
  receiver = undefined;
});

async function start(
  behaviour: ReceiverBehaviour,
  configure?: (config: SandboxConfig) => void,
): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(behaviour);
  receiver = started;
  sandbox = await startTestSandbox({ webhookUrl: started.url, ...(configure ? { configure } : {}) });
  return started;
}

/** Buys a day pass through the checkout (network recognition): exactly one event, payment.succeeded. */
async function buyDayPass(): Promise<string> {
  const token = await getToken(sandbox);
  const payment = dataOf(
    await createPayment(sandbox, token, paymentBody('offer_day_pass', { metadata: { orderRef: 'A-1' } })),
    paymentSchema,
  );
  const browser = new CheckoutBrowser(sandbox.checkoutBaseUrl);
  const consent = await browser.submit(await browser.open(payment.checkoutUrl), '/number', {
    msisdn: '+21690000000',
    network: 'MOBILE_DATA',
  });
  await browser.submit(consent, '/consent/header-enrichment');
  return payment.paymentUid;
}

async function listed(query = ''): Promise<WebhookDelivery[]> {
  const answer = await apiGet(sandbox, `/sandbox/webhooks${query}`);
  expect(answer.status).toBe(200);
  return (answer.body as { data: WebhookDelivery[] }).data;
}

function verifiedAll(target: WebhookReceiver) {
  return target.verifiedEvents(sandbox.credentials.webhookSecret);
}

describe('webhook delivery', () => {
  it('posts the event as JSON, signed over the exact bytes sent', async () => {
    const target = await start(() => 204);
    const paymentUid = await buyDayPass();
    await sandbox.deliverDue();
    expect(target.received).toHaveLength(1);
    const [received] = target.received;
    expect(received?.headers['content-type']).toBe('application/json');
    const signature = received?.headers[SIGNATURE_HEADER];
    expect(signature).toMatch(/^t=[0-9]+,v1=[0-9a-f]{64}$/);
    const [event] = verifiedAll(target);
    expect(event).toMatchObject({ event: 'payment.succeeded', paymentUid, metadata: { orderRef: 'A-1' } });
    const [delivery] = await listed();
    expect(delivery?.body).toBe(received?.rawBody.toString('utf8'));
    expect(delivery).toMatchObject({
      status: 'DELIVERED',
      attempts: [{ number: 1, httpStatus: 204, ok: true, signature }],
    });
    expect(() =>
      verifyWebhook({
        rawBody: `${received?.rawBody.toString('utf8')} `,
        signature,
        secrets: sandbox.credentials.webhookSecret,
      }),
    ).toThrow(/No v1 signature matches/);
  });

  it('retries a non-2xx answer with backoff on the clock until it is accepted', async () => {
    const target = await start((n) => (n <= 2 ? 500 : 200));
    await buyDayPass();
    await sandbox.deliverDue();
    expect(target.received).toHaveLength(1);
    const [pending] = await listed();
    expect(pending).toMatchObject({ status: 'PENDING', nextAttemptAt: '2030-01-01T00:01:00.000Z' });
    expect(pending?.attempts[0]).toMatchObject({
      httpStatus: 500,
      ok: false,
      responseBody: 'refused with 500',
    });
    await sandbox.clock.advance(59);
    expect(target.received).toHaveLength(1);
    await sandbox.clock.advance(1);
    expect(target.received).toHaveLength(2);
    await sandbox.clock.advance(600);
    expect(target.received).toHaveLength(3);
    const [delivered] = await listed();
    expect(delivered?.status).toBe('DELIVERED');
    expect(delivered?.attempts.map((attempt) => [attempt.at, attempt.httpStatus])).toEqual([
      ['2030-01-01T00:00:00.000Z', 500],
      ['2030-01-01T00:01:00.000Z', 500],
      ['2030-01-01T00:11:00.000Z', 200],
    ]);
    const bodies = new Set(target.received.map((copy) => copy.rawBody.toString('utf8')));
    expect(bodies.size).toBe(1);
    expect(verifiedAll(target).map((event) => event.event)).toEqual([
      'payment.succeeded',
      'payment.succeeded',
      'payment.succeeded',
    ]);
    await sandbox.clock.advance(48 * 3600);
    expect(target.received).toHaveLength(3);
  });

  it('dead-letters after five failed attempts, then a replay delivers it', async () => {
    let failing = true;
    const target = await start(() => (failing ? 503 : 200));
    await buyDayPass();
    await sandbox.deliverDue();
    await sandbox.clock.advance(60 + 600 + 3600 + 21_600);
    expect(target.received).toHaveLength(5);
    const [dead] = await listed('?status=DEAD_LETTERED');
    expect(dead?.attempts).toHaveLength(5);
    expect(dead?.nextAttemptAt).toBeNull();
    await sandbox.clock.advance(48 * 3600);
    expect(target.received).toHaveLength(5);

    failing = false;
    const replay = await apiPost(sandbox, `/sandbox/webhooks/${dead?.id}/replay`);
    expect(replay.status).toBe(200);
    const replayed = (replay.body as { data: WebhookDelivery }).data;
    expect(replayed.status).toBe('DELIVERED');
    expect(replayed.attempts.at(-1)).toMatchObject({ number: 6, replay: true, httpStatus: 200, ok: true });
    expect(target.received).toHaveLength(6);
    expect(verifiedAll(target)).toHaveLength(6);
    expect(target.received[5]?.rawBody.toString('utf8')).toBe(dead?.body);
  });

  it('sandbox.replayWebhook replays as the endpoint does, and throws a typed error when it cannot', async () => {
    let failing = true;
    const target = await start(() => (failing ? 503 : 200));
    await buyDayPass();
    await sandbox.deliverDue();
    await sandbox.clock.advance(60 + 600 + 3600 + 21_600);
    const [dead] = sandbox.webhooks();
    expect(dead?.status).toBe('DEAD_LETTERED');
    const stillFailing = await sandbox.replayWebhook(dead?.id ?? '');
    expect(stillFailing.status).toBe('DEAD_LETTERED');
    expect(stillFailing.attempts.at(-1)).toMatchObject({ number: 6, replay: true, httpStatus: 503 });

    failing = false;
    const replayed = await sandbox.replayWebhook(dead?.id ?? '');
    expect(replayed).toMatchObject({ id: dead?.id, status: 'DELIVERED' });
    expect(replayed.attempts.at(-1)).toMatchObject({ number: 7, replay: true, httpStatus: 200, ok: true });
    expect(verifiedAll(target)).toHaveLength(7);

    await expect(sandbox.replayWebhook('evt_nope')).rejects.toMatchObject({
      name: 'SandboxError',
      code: 'unknown_webhook_event',
    });
    sandbox.setWebhookUrl(null);
    await expect(sandbox.replayWebhook(dead?.id ?? '')).rejects.toMatchObject({
      name: 'SandboxError',
      code: 'no_webhook_url',
    });
  });

  it('dead-letters once the next attempt would fall after 48 hours from the first', async () => {
    const target = await start(
      () => 500,
      (config) => {
        // The third attempt would come 48 h and 1 s after the first.
        config.webhooks.retryDelaysSeconds = [3600, 47 * 3600 + 1, 60];
      },
    );
    await buyDayPass();
    await sandbox.deliverDue();
    await sandbox.clock.advance(3600);
    const [afterTwo] = await listed();
    expect(afterTwo?.attempts).toHaveLength(2);
    expect(afterTwo?.status).toBe('DEAD_LETTERED');
    await sandbox.clock.advance(72 * 3600);
    expect(target.received).toHaveLength(2);
  });

  it('counts a receiver that never answers as failed, and retries it', async () => {
    const target = await start(
      (n) => (n === 1 ? 'hang' : 200),
      (config) => {
        config.webhooks.timeoutMs = 150;
      },
    );
    await buyDayPass();
    await sandbox.deliverDue();
    const [timedOut] = await listed();
    expect(timedOut?.attempts[0]).toMatchObject({
      httpStatus: null,
      error: 'no answer within 150 ms',
      ok: false,
    });
    expect(timedOut?.status).toBe('PENDING');
    await sandbox.clock.advance(60);
    const [delivered] = await listed();
    expect(delivered?.status).toBe('DELIVERED');
    expect(verifiedAll(target)).toHaveLength(2);
  });

  it('counts an unreachable receiver as failed', async () => {
    const target = await start(() => 200);
    const unreachable = target.url;
    await target.close();
    receiver = undefined;
    await buyDayPass();
    await sandbox.deliverDue();
    const [failed] = await listed();
    expect(failed?.attempts[0]?.url).toBe(unreachable);
    expect(failed?.attempts[0]?.httpStatus).toBeNull();
    expect(failed?.attempts[0]?.error).toEqual(expect.any(String));
    expect(failed?.status).toBe('PENDING');
  });

  it('records events without posting them when no webhook URL is set, until one is set', async () => {
    sandbox = await startTestSandbox();
    await buyDayPass();
    await sandbox.deliverDue();
    const [unposted] = await listed();
    expect(unposted).toMatchObject({ event: 'payment.succeeded', status: 'NOT_POSTED', attempts: [] });
    expectApiError(await apiPost(sandbox, `/sandbox/webhooks/${unposted?.id}/replay`), 'SBX-400');

    const target = await startWebhookReceiver();
    receiver = target;
    const set = await fetch(
      `${sandbox.apiBaseUrl}/sandbox/applications/${sandbox.credentials.clientId}/webhook-url`,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: target.url }),
      },
    );
    expect(set.status).toBe(200);
    expect((await apiPost(sandbox, `/sandbox/webhooks/${unposted?.id}/replay`)).status).toBe(200);
    await buyDayPass();
    await sandbox.deliverDue();
    expect(verifiedAll(target).map((event) => event.event)).toEqual([
      'payment.succeeded',
      'payment.succeeded',
    ]);
  });

  it('lists deliveries by payment and event, and says when one is unknown', async () => {
    await start(() => 200);
    const first = await buyDayPass();
    await buyDayPass();
    await sandbox.deliverDue();
    expect(await listed()).toHaveLength(2);
    const byPayment = await listed(`?paymentUid=${first}`);
    expect(byPayment.map((delivery) => delivery.payload.paymentUid)).toEqual([first]);
    expect(await listed('?event=payment.failed')).toEqual([]);
    expect((await apiGet(sandbox, `/sandbox/webhooks/${byPayment[0]?.id}`)).status).toBe(200);
    expectApiError(await apiGet(sandbox, '/sandbox/webhooks/evt_nope'), 'SBX-404');
    expectApiError(await apiPost(sandbox, '/sandbox/webhooks/evt_nope/replay'), 'SBX-404');
  });
});
