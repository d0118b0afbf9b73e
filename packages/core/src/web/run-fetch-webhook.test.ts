import { describe, expect, it, vi } from 'vitest';
import { memoryLedger } from '../ledger/memory-ledger.js';
import { memoryStore } from '../store/memory-store.js';
import { NOW, offers, paymentEvent, SECRET } from '../test-support/fixtures.js';
import { createWebhookHandler } from '../webhooks/create-webhook-handler.js';
import { signWebhook } from '../webhooks/sign-webhook.js';
import { createFetchWebhook, runFetchWebhook } from './run-fetch-webhook.js';

const payload = JSON.stringify(paymentEvent('payment.succeeded', 0, 'off_unlock'));

function setup(limits: { maxBodyBytes?: number; bodyTimeoutMs?: number } = {}) {
  const store = memoryStore();
  const logger = { warn: vi.fn(), error: vi.fn() };
  const handler = createWebhookHandler({
    secrets: SECRET,
    store,
    ledger: memoryLedger(),
    offers,
    logger,
    now: () => NOW,
    ...limits,
  });
  return { handler, store, logger, webhook: createFetchWebhook(handler) };
}

const signature = (body: string) => signWebhook({ payload: body, secret: SECRET, timestamp: NOW });

/** A delivery as the service posts it; the body as a string or a stream. */
function delivery(body: RequestInit['body'] = payload, headers: Record<string, string> = {}): Request {
  return new Request('https://shop.example/webhooks/dcb', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Service-Signature': signature(payload), ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
}

/** A stream that sends `first`, then nothing more until cancelled: a sender that stalls. */
function stalling(first: string) {
  const seen = { cancelled: false };
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return new Promise<void>(() => {});
      sent = true;
      controller.enqueue(new TextEncoder().encode(first));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

const answer = async (response: Response) => ({ status: response.status, body: await response.json() });

describe('createFetchWebhook', () => {
  it('hands the exact bytes and the headers to the handler and answers with a Response', async () => {
    const { webhook, store } = setup();
    const first = await webhook(delivery());
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(await answer(first)).toEqual({ status: 200, body: { received: true, outcome: 'applied' } });
    expect(await answer(await webhook(delivery()))).toEqual({
      status: 200,
      body: { received: true, outcome: 'duplicate' },
    });
    expect(await store.get('user_1', 'prod_unlock')).toMatchObject({ status: 'ACTIVE' });
    expect(await answer(await webhook(delivery(payload.replace('user_1', 'user_2'))))).toEqual({
      status: 401,
      body: { received: false, error: 'signature_mismatch' },
    });
  });

  it('answers 413 on a Content-Length above maxBodyBytes, and on a stream passing it', async () => {
    const { webhook, handler } = setup({ maxBodyBytes: 64 });
    expect(
      await answer(await webhook(delivery(payload, { 'content-length': String(payload.length) }))),
    ).toEqual({
      status: 413,
      body: { received: false, error: 'body_too_large' },
    });
    const { stream } = stalling('x'.repeat(100));
    expect((await webhook(delivery(stream))).status).toBe(413);
    expect(handler.health().refused).toEqual({ body_too_large: 2 });
  });

  it('answers 408 for a body slower than bodyTimeoutMs, and cancels it', async () => {
    const { webhook } = setup({ bodyTimeoutMs: 100 });
    const { stream, seen } = stalling('{"event":');
    const started = Date.now();
    expect(await answer(await webhook(delivery(stream)))).toEqual({
      status: 408,
      body: { received: false, error: 'body_timeout' },
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(seen.cancelled).toBe(true);
  });

  it('answers 500 at once for a body already read, and logs the one-line fix', async () => {
    const { webhook, store, logger } = setup();
    const request = delivery();
    await request.json();
    expect(await answer(await webhook(request))).toEqual({
      status: 500,
      body: { received: false, error: 'body_not_raw' },
    });
    expect(await store.get('user_1', 'prod_unlock')).toBeUndefined();
    expect(logger.error).toHaveBeenCalledWith(
      expect.anything(),
      expect.stringMatching(/raw body is gone.*before anything reads its body \(request\.json\(\)/),
    );
  });

  it('uses bytes a framework kept, and says the adapter’s own fix', async () => {
    const { handler, logger } = setup();
    const request = delivery();
    const kept = new Uint8Array(await request.arrayBuffer());
    const applied = await runFetchWebhook(handler, request, { kept });
    expect(await answer(applied)).toEqual({ status: 200, body: { received: true, outcome: 'applied' } });
    const read = delivery();
    await read.text();
    await runFetchWebhook(handler, read, { mountingHint: 'Use c.req.arrayBuffer() in the Hono route.' });
    expect(logger.error).toHaveBeenCalledWith(expect.anything(), expect.stringMatching(/Hono route\.$/));
  });
});
