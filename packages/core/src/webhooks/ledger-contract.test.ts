import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { DcbError } from '../errors/dcb-error.js';
import type { EventLedger } from '../ledger/event-ledger.js';
import type { ErrorContext } from '../observability/error-reporter.js';
import { memoryStore } from '../store/memory-store.js';
import { KEY, NOW, offers, paymentEvent, SECRET, signedRequest } from '../test-support/fixtures.js';
import { offlineKit } from '../test-support/offline-kit.js';
import { createWebhookHandler } from './create-webhook-handler.js';

/** A custom ledger written for the old contract: claim() answers a bare string, complete and release take no token. */
function oldContractLedger(answer: string): EventLedger & { completed: string[] } {
  const completed: string[] = [];
  const ledger = {
    completed,
    claim: async () => answer,
    complete: async (key: string) => {
      completed.push(key);
    },
    release: async () => {},
  };
  return ledger as unknown as EventLedger & { completed: string[] };
}

function handlerOn(ledger: EventLedger) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    }),
  );
  const reported: Array<{ error: Error; context: ErrorContext }> = [];
  const store = memoryStore();
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
  });
  return { handler, lines, reported, store };
}

const purchase = () =>
  paymentEvent('payment.succeeded', 0, 'off_monthly', {
    subscriptionUid: 'sub_1',
    metadata: { accountKey: KEY.accountKey },
  });

describe('createWebhookHandler: a ledger that breaks the claim contract fails loudly', () => {
  it.each(['new', 'duplicate', 'in_progress'])(
    "a claim() on the old contract answering '%s': 500 ledger_contract_violated, logged, to onError, nothing granted",
    async (answer) => {
      const ledger = oldContractLedger(answer);
      const { handler, lines, reported, store } = handlerOn(ledger);
      const delivery = await handler(signedRequest(purchase()));

      // Not 409 in silence (the service would retry it into the dead letters), not 2xx (it would be lost).
      expect(delivery.status).toBe(500);
      expect(JSON.parse(delivery.body ?? '')).toEqual({ received: false, error: 'ledger_contract_violated' });

      const logged = lines.filter((line) => line.level === 50);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ code: 'ledger_contract_violated', source: 'webhook' });
      expect(logged[0]?.msg).toContain(`claim() answered '${answer}'`);
      expect(logged[0]?.msg).toContain('old claim() contract');
      expect(logged[0]?.msg).toContain("{ status: 'new', token }");

      expect(reported).toHaveLength(1);
      const error = reported[0]?.error as DcbError;
      expect(error.code).toBe('ledger_contract_violated');
      expect(reported[0]?.context).toEqual({ source: 'webhook', event: 'payment.succeeded' });

      expect(await store.get(KEY.accountKey, KEY.productUid)).toBeUndefined();
      expect(ledger.completed).toEqual([]);
      expect(handler.health().failed).toMatchObject({ ledger_contract_violated: 1 });
    },
  );

  it.each([
    ['a new claim without its token', { status: 'new' }],
    ['an unknown status', { status: 'claimed', token: 1 }],
    ['nothing', undefined],
  ])('%s: refused the same way, naming what it got', async (_, answered) => {
    const ledger = { claim: async () => answered, complete: async () => {}, release: async () => {} };
    const { handler, reported } = handlerOn(ledger as unknown as EventLedger);
    const delivery = await handler(signedRequest(purchase()));
    expect(delivery.status).toBe(500);
    const error = reported[0]?.error as DcbError;
    expect(error.code).toBe('ledger_contract_violated');
    expect(error.message).toContain(`claim() answered ${JSON.stringify(answered) ?? 'undefined'}`);
  });

  it('through createDcbKit: the kit’s logger and onError get it, as a custom ledger is given there', async () => {
    const logged: string[] = [];
    const reported: Error[] = [];
    const kit = offlineKit({
      ledger: oldContractLedger('new'),
      logger: { error: (_fields, message) => logged.push(message) },
      onError: (error) => {
        reported.push(error);
      },
    });
    const delivery = await kit.webhook(signedRequest(purchase(), new Date()));
    expect(delivery.status).toBe(500);
    expect(logged).toEqual([expect.stringContaining("the ledger's claim() answered 'new'")]);
    expect(reported).toEqual([expect.objectContaining({ code: 'ledger_contract_violated' })]);
  });
});
