import type { WebhookEvent } from '@dcbkit/core';
import { paymentSchema } from '@dcbkit/core/schemas';
import { eventKey } from '@dcbkit/core/store';
import { parseSignatureHeader, SIGNATURE_HEADER, verifyWebhook } from '@dcbkit/core/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChaosSettingsInput } from '../config/chaos-settings.js';
import type { SandboxConfig } from '../config/config-schema.js';
import {
  apiGet,
  controlRequest,
  createPayment,
  dataOf,
  expectApiError,
  paymentBody,
} from '../test-support/api-client.js';
import {
  payAtCheckout,
  type SubscriptionWorld,
  startSubscriptionWorld,
  stopSubscriptionWorld,
  subscribe,
} from '../test-support/subscription-world.js';
import type { WebhookReceiverOptions } from '../test-support/webhook-receiver.js';
import { DeliveryChaos } from './delivery-chaos.js';

let world: SubscriptionWorld | undefined;
afterEach(async () => {
  await stopSubscriptionWorld(world);
  world = undefined;
});

async function start(
  chaos?: ChaosSettingsInput,
  receiverOptions: WebhookReceiverOptions = {},
): Promise<SubscriptionWorld> {
  const configure = (config: SandboxConfig) => {
    if (chaos) config.chaos = { ...config.chaos, ...chaos };
  };
  world = await startSubscriptionWorld(configure, receiverOptions);
  return world;
}

/**
 * Buys day passes from distinct lines: one payment.succeeded each, all at the same sandbox instant.
 * Each purchase's first attempt is made before the next purchase, so the order is the same on every run.
 */
async function buyDayPasses(w: SubscriptionWorld, count: number): Promise<string[]> {
  const paymentUids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await createPayment(w.sandbox, await w.token(), paymentBody('offer_day_pass'));
    const payment = dataOf(created, paymentSchema);
    await payAtCheckout(w.sandbox, payment.checkoutUrl, `+2169000100${i}`);
    await w.sandbox.deliverDue();
    paymentUids.push(payment.paymentUid);
  }
  return paymentUids;
}

/** Events in the order the sandbox produced them. */
function produced(w: SubscriptionWorld): WebhookEvent[] {
  return w.sandbox.webhooks().map((delivery) => delivery.payload);
}

function keys(events: WebhookEvent[]): string[] {
  return events.map(eventKey);
}

function putChaos(w: SubscriptionWorld, body: unknown) {
  return controlRequest(w.sandbox, 'PUT', '/sandbox/chaos', body);
}

describe('delivery chaos', () => {
  it('is off by default: each event once, in order, and GET /sandbox/chaos says so', async () => {
    const w = await start();
    await subscribe(w);
    await w.sandbox.deliverDue();
    expect(keys(w.receiver.verifiedEvents(w.sandbox.credentials.webhookSecret))).toEqual(keys(produced(w)));
    expect(w.sandbox.webhooks().every((delivery) => delivery.chaos.length === 0)).toBe(true);
    const answer = await apiGet(w.sandbox, '/sandbox/chaos');
    expect((answer.body as { data: unknown }).data).toEqual({
      seed: 1,
      duplicateProbability: 0,
      reorderProbability: 0,
      reorderHoldSeconds: 60,
      delayProbability: 0,
      maxDelaySeconds: 30,
      staleSignatureProbability: 0,
      indentedBodyProbability: 0,
    });
  });

  it('duplicates: a delivered event is posted once more, same bytes, freshly signed', async () => {
    const w = await start({ duplicateProbability: 1 });
    await subscribe(w);
    await w.sandbox.deliverDue();
    const received = w.receiver.verifiedEvents(w.sandbox.credentials.webhookSecret);
    expect(received).toHaveLength(2 * produced(w).length);
    expect(new Set(keys(received))).toEqual(new Set(keys(produced(w))));
    for (const delivery of w.sandbox.webhooks()) {
      expect(delivery.status).toBe('DELIVERED');
      expect(delivery.attempts.map((attempt) => [attempt.number, attempt.chaos, attempt.ok])).toEqual([
        [1, null, true],
        [2, 'duplicate', true],
      ]);
      const copies = w.receiver.received.filter((copy) => copy.rawBody.toString('utf8') === delivery.body);
      expect(copies).toHaveLength(2);
    }
  });

  it('reordering: with a fixed seed, events held back arrive after later ones, and every event arrives', async () => {
    const w = await start({ reorderProbability: 0.5, seed: 6 });
    await buyDayPasses(w, 6);
    const last = w.sandbox.webhooks().at(-1);
    expect(last).toMatchObject({
      status: 'PENDING',
      attempts: [],
      nextAttemptAt: '2030-01-01T00:01:00.000Z',
    });
    expect(w.receiver.received).toHaveLength(5);
    await w.sandbox.advanceClock(60);
    const events = produced(w);
    const arrived = w.receiver.verifiedEvents(w.sandbox.credentials.webhookSecret);
    const arrivalOrder = keys(arrived).map((key) => keys(events).indexOf(key));
    // Seed 6 holds back the 2nd, 4th and 6th events: each goes once the next one was posted; the
    // 6th, with nothing after it, when its hold ends.
    expect(arrivalOrder).toEqual([0, 2, 1, 4, 3, 5]);
    expect(w.sandbox.webhooks().map((delivery) => delivery.chaos.length > 0)).toEqual([
      false,
      true,
      false,
      true,
      false,
      true,
    ]);
    expect(w.sandbox.webhooks().every((delivery) => delivery.status === 'DELIVERED')).toBe(true);
  });

  it('delays: the first attempt waits on the sandbox clock', async () => {
    const w = await start({ delayProbability: 1, maxDelaySeconds: 30 });
    await buyDayPasses(w, 2);
    await w.sandbox.deliverDue();
    expect(w.receiver.received).toHaveLength(0);
    for (const delivery of w.sandbox.webhooks()) {
      expect(delivery.chaos).toEqual([
        expect.stringMatching(/^first attempt delayed ([1-9]|[12][0-9]|30) s$/),
      ]);
      expect(Date.parse(delivery.nextAttemptAt ?? '')).toBeGreaterThan(w.sandbox.clock.now().getTime());
    }
    await w.sandbox.advanceClock(30);
    expect(w.receiver.received).toHaveLength(2);
  });

  it('stale signatures: the receiver rejects them, the retry is signed fresh and accepted', async () => {
    const secret = 'whsec_sandbox_demo_secret';
    const w = await start({ staleSignatureProbability: 1 }, { verifyWith: secret });
    await subscribe(w);
    await w.sandbox.deliverDue();
    const count = produced(w).length;
    expect(w.receiver.received.map((copy) => copy.answer)).toEqual(Array(count).fill(400));
    expect(w.receiver.acceptedEvents(secret)).toEqual([]);
    await w.sandbox.advanceClock(60);
    expect(keys(w.receiver.acceptedEvents(secret))).toEqual(keys(produced(w)));
    for (const delivery of w.sandbox.webhooks()) {
      expect(delivery.status).toBe('DELIVERED');
      const [stale, fresh] = delivery.attempts;
      expect([stale?.chaos, stale?.httpStatus, fresh?.chaos, fresh?.httpStatus]).toEqual([
        'stale-signature',
        400,
        null,
        200,
      ]);
      const staleAt = parseSignatureHeader(stale?.signature ?? '').timestamp;
      const freshAt = parseSignatureHeader(fresh?.signature ?? '').timestamp;
      expect(freshAt - staleAt).toBeGreaterThanOrEqual(600);
    }
  });

  it('indented bodies: other bytes than a re-serialisation gives, signed as sent, alike in every copy', async () => {
    const w = await start({ indentedBodyProbability: 1, duplicateProbability: 1 });
    await subscribe(w);
    await w.sandbox.deliverDue();
    const secret = w.sandbox.credentials.webhookSecret;
    expect(keys(w.receiver.verifiedEvents(secret))).toHaveLength(2 * produced(w).length);
    for (const delivery of w.sandbox.webhooks()) {
      expect(delivery.chaos).toEqual(['body indented']);
      expect(delivery.body).toBe(JSON.stringify(delivery.payload, null, 2));
      const copies = w.receiver.received.filter((copy) => copy.rawBody.toString('utf8') === delivery.body);
      expect(copies).toHaveLength(2);
    }
    // What a receiver that re-serialises the parsed body would verify: refused.
    const [first] = w.receiver.received;
    const reserialised = JSON.stringify(JSON.parse(first?.rawBody.toString('utf8') ?? ''));
    expect(() =>
      verifyWebhook({ rawBody: reserialised, signature: first?.headers[SIGNATURE_HEADER], secrets: secret }),
    ).toThrow(expect.objectContaining({ code: 'signature_mismatch' }));
  });

  it('PUT /sandbox/chaos replaces the settings, and refuses unknown ones with SBX-400', async () => {
    const w = await start();
    const put = await putChaos(w, { duplicateProbability: 1, seed: 3 });
    expect(put.status).toBe(200);
    expect(w.sandbox.chaos()).toMatchObject({ duplicateProbability: 1, seed: 3, reorderProbability: 0 });
    await subscribe(w);
    await w.sandbox.deliverDue();
    expect(w.receiver.received).toHaveLength(4);
    expectApiError(await putChaos(w, { duplicateProbability: 2 }), 'SBX-400');
    expectApiError(await putChaos(w, { jitter: 1 }), 'SBX-400');
    expect((await putChaos(w, {})).status).toBe(200);
    expect(w.sandbox.chaos().duplicateProbability).toBe(0);
    expect(() => w.sandbox.setChaos({ reorderProbability: -1 })).toThrow(
      expect.objectContaining({ name: 'SandboxError', code: 'invalid_chaos_settings' }),
    );
  });
});

describe('DeliveryChaos', () => {
  it('draws the same chaos from the same seed, and none at probability 0', () => {
    const settings = {
      seed: 42,
      duplicateProbability: 0.5,
      reorderProbability: 0.5,
      reorderHoldSeconds: 60,
      delayProbability: 0.5,
      maxDelaySeconds: 30,
      staleSignatureProbability: 0.5,
      indentedBodyProbability: 0.5,
    };
    const roll = (chaos: DeliveryChaos) =>
      Array.from({ length: 50 }, () => [
        chaos.indentBody(),
        chaos.holdForReorder(),
        chaos.firstAttemptDelaySeconds(),
        chaos.signStale(),
        chaos.duplicate(),
      ]);
    const first = roll(new DeliveryChaos(settings));
    expect(roll(new DeliveryChaos(settings))).toEqual(first);
    expect(roll(new DeliveryChaos({ ...settings, seed: 43 }))).not.toEqual(first);
    const flat = first.flat();
    expect(flat).toContain(true);
    expect(flat).toContain(false);
    const off = new DeliveryChaos({
      ...settings,
      duplicateProbability: 0,
      staleSignatureProbability: 0,
      indentedBodyProbability: 0,
    });
    expect(
      Array.from({ length: 50 }, () => off.duplicate() || off.signStale() || off.indentBody()),
    ).not.toContain(true);
  });
});
