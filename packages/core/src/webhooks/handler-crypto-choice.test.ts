import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryLedger } from '../ledger/memory-ledger.js';
import { memoryStore } from '../store/memory-store.js';
import type { WebhookHandler } from './create-webhook-handler.js';
import { deliveryWith, NOW, REFUSALS, SECRET } from './test-support/verification-vectors.js';
import type { VerifyWebhookOptions } from './verify-checks.js';

// createWebhookHandler verifies on node's crypto, synchronously, where the runtime has it, and on
// Web Crypto where it has not (an edge runtime, played here by a process.getBuiltinModule that
// finds nothing; web/neutral-bundle.test.ts runs it for real in a realm without node).

const OFFERS = [
  {
    offerUid: 'premium_monthly',
    productUid: 'premium',
    name: 'Premium',
    type: 'NON_CONSUMABLE' as const,
    price: { amount: 4500, currency: 'TND' },
  },
];

/** A handler from a fresh load of the module, on a runtime with or without node's crypto. */
async function handlerOn(runtime: 'node' | 'edge'): Promise<WebhookHandler> {
  vi.resetModules();
  if (runtime === 'edge') vi.spyOn(process, 'getBuiltinModule').mockImplementation(() => undefined as never);
  const { createWebhookHandler } = await import('./create-webhook-handler.js');
  return createWebhookHandler({
    secrets: SECRET,
    store: memoryStore(),
    ledger: memoryLedger(),
    offers: OFFERS,
    logger: {},
    now: () => NOW,
  });
}

/** The handler's answer to a delivery of the verification vectors (the signature's header as it came). */
async function answerTo(handler: WebhookHandler, options: VerifyWebhookOptions) {
  const headers = options.signature == null ? {} : { 'service-signature': options.signature };
  const answer = await handler({ rawBody: options.rawBody, headers });
  return { status: answer.status, body: answer.body };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createWebhookHandler chooses its verification', () => {
  it('on Node: node crypto, synchronously, never Web Crypto', async () => {
    const sign = vi.spyOn(globalThis.crypto.subtle, 'sign');
    const handler = await handlerOn('node');
    expect(await answerTo(handler, deliveryWith())).toEqual({
      status: 200,
      body: JSON.stringify({ received: true, outcome: 'applied' }),
    });
    expect(sign).not.toHaveBeenCalled();
  });

  it('without node crypto: Web Crypto, with the same answer to every vector', async () => {
    const onNode = await handlerOn('node');
    const sign = vi.spyOn(globalThis.crypto.subtle, 'sign');
    const onEdge = await handlerOn('edge');
    for (const [label, change] of [['well signed', {}] as const, ...REFUSALS]) {
      const delivery = deliveryWith(change);
      expect(await answerTo(onEdge, delivery), label).toEqual(await answerTo(onNode, delivery));
    }
    expect(sign).toHaveBeenCalled();
    expect(onEdge.health()).toEqual({ ...onNode.health(), since: onEdge.health().since });
  });
});
