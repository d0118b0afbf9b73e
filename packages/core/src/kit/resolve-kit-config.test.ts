import { describe, expect, it } from 'vitest';
import { memoryStore } from '../store/memory-store.js';
import { offers } from '../test-support/fixtures.js';
import type { DcbKitConfig } from './kit-types.js';
import { resolveKitConfig } from './resolve-kit-config.js';

const client = {
  environment: 'sandbox',
  baseUrl: 'http://127.0.0.1:1',
  clientId: 'svc_test_x',
  clientSecret: 's',
} as const;

function resolve(config: Partial<DcbKitConfig> = {}) {
  return resolveKitConfig({ client, webhookSecrets: 'whsec_a', offers, ...config });
}

/** A store that keeps entitlements but no history: the memory store without its history methods. */
function storeWithoutHistory() {
  const { appendHistory: _a, listHistory: _l, pruneHistory: _p, ...store } = memoryStore();
  return store;
}

describe('resolveKitConfig: whether history is recorded, decided once for every part', () => {
  it('records it by default, when the store keeps one, and tells every part so', () => {
    const resolved = resolve({ returnUrl: 'https://shop.example/return' });
    expect(resolved.history).toBe(resolved.store);
    expect(resolved.webhook.history).toBe(true);
    expect(resolved.routes?.history).toBe(true);
    expect(resolved.reconcile.history).toBe(true);
  });

  it.each([
    ['history: false', { history: false }],
    ['a store that keeps none', { store: storeWithoutHistory() as never }],
  ])('records none with %s, and tells every part so', (_, config) => {
    const resolved = resolve({ returnUrl: 'https://shop.example/return', ...config });
    expect(resolved.history).toBeUndefined();
    expect(resolved.webhook.history).toBe(false);
    expect(resolved.routes?.history).toBe(false);
    expect(resolved.reconcile.history).toBe(false);
  });
});

describe('resolveKitConfig: one configuration for every part', () => {
  it('gives every part the same store, offers, account key field and logger', () => {
    const logger = { warn: () => {} };
    const resolved = resolve({ returnUrl: 'https://shop.example/return', accountKeyField: 'userId', logger });
    for (const part of [resolved.webhook, resolved.routes, resolved.reconcile]) {
      expect(part).toMatchObject({
        store: resolved.store,
        offers: resolved.offers,
        accountKeyField: 'userId',
        logger,
      });
    }
  });

  it('makes no routes without a returnUrl, and derives the form key from the webhook secrets', () => {
    expect(resolve().routes).toBeUndefined();
    const secrets = resolve({ returnUrl: 'https://shop.example/return' }).routes?.formSecret;
    expect(secrets).toHaveLength(1);
    expect(secrets).not.toContain('whsec_a');
  });

  it('passes the clock to the client and the routes, never to the webhook (signatures are real time)', () => {
    const now = () => new Date('2026-01-01T00:00:00Z');
    const resolved = resolve({ returnUrl: 'https://shop.example/return', now });
    expect(resolved.now).toBe(now);
    expect(resolved.client).toMatchObject({ now });
    expect(resolved.routes?.now).toBe(now);
    expect(resolved.webhook).not.toHaveProperty('now');
  });

  it('refuses an empty accountKeyField and a retention that is not a positive number of days', () => {
    expect(() => resolve({ accountKeyField: '' })).toThrow(
      expect.objectContaining({ code: 'invalid_option', details: { option: 'accountKeyField' } }),
    );
    expect(() => resolve({ historyRetentionDays: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_option', details: { option: 'historyRetentionDays' } }),
    );
  });
});
