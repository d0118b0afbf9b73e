import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { memoryLedger } from '../ledger/memory-ledger.js';
import type { ErrorContext } from '../observability/error-reporter.js';
import type { EntitlementStore } from '../store/entitlement-store.js';
import { memoryStore } from '../store/memory-store.js';
import { NOW, offers, paymentEvent, SECRET, signedRequest } from '../test-support/fixtures.js';
import { createWebhookHandler } from './create-webhook-handler.js';

function capturingPino() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino(stream), lines };
}

const purchase = () =>
  paymentEvent('payment.succeeded', 0, 'off_monthly', {
    subscriptionUid: 'sub_1',
    metadata: { accountKey: 'user_1' },
  });

function handlerWith(store: EntitlementStore, timeoutMs?: number) {
  const { logger, lines } = capturingPino();
  const reported: Array<{ error: Error; context: ErrorContext }> = [];
  const ledger = memoryLedger();
  const handler = createWebhookHandler({
    secrets: SECRET,
    store,
    ledger,
    offers,
    logger,
    onError: (error, context) => {
      reported.push({ error, context });
    },
    now: () => NOW,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  return { handler, lines, reported, ledger };
}

describe('createWebhookHandler: errors reach the log and the error hook whole', () => {
  it('a store that throws: pino gets the Error with its stack and the event; onError gets the Error itself', async () => {
    const failure = new Error('connection reset by peer');
    const store: EntitlementStore = { ...memoryStore(), update: () => Promise.reject(failure) };
    const { handler, lines, reported } = handlerWith(store);
    const answer = await handler(signedRequest(purchase()));
    expect(answer.status).toBe(500);
    const line = lines.find((entry) => entry.level === 50);
    expect(line).toMatchObject({ source: 'webhook', event: 'payment.succeeded' });
    expect(line?.err).toMatchObject({ type: 'Error', message: 'connection reset by peer' });
    expect(String((line?.err as { stack?: string } | undefined)?.stack)).toContain('error-reporting.test.ts');
    expect(reported).toEqual([
      { error: failure, context: { source: 'webhook', event: 'payment.succeeded' } },
    ]);
  });

  it('a store that never answers: 503 within timeoutMs, the claim released, and a retry processed', async () => {
    const inner = memoryStore();
    let hang = true;
    const store: EntitlementStore = {
      ...inner,
      update: (...args) => (hang ? new Promise(() => {}) : inner.update(...args)),
    };
    const { handler, reported } = handlerWith(store, 100);
    const started = Date.now();
    const answer = await handler(signedRequest(purchase()));
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBeDefined();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(reported[0]?.error).toMatchObject({ code: 'timeout' });

    hang = false;
    const retry = await handler(signedRequest(purchase()));
    expect(retry.status).toBe(200);
    expect(await inner.get('user_1', 'prod_premium')).toMatchObject({ status: 'ACTIVE' });
  });

  it('an onError hook that throws is logged, never thrown back', async () => {
    const store: EntitlementStore = { ...memoryStore(), update: () => Promise.reject(new Error('down')) };
    const { logger, lines } = capturingPino();
    const handler = createWebhookHandler({
      secrets: SECRET,
      store,
      ledger: memoryLedger(),
      offers,
      logger,
      onError: () => {
        throw new Error('tracker offline');
      },
      now: () => NOW,
    });
    expect((await handler(signedRequest(purchase()))).status).toBe(500);
    expect(lines.some((line) => line.msg === 'dcbkit: the onError hook failed')).toBe(true);
  });
});
