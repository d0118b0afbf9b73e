import {
  exampleEntitlement,
  runHistoryConformance,
  runReconcileConformance,
  runStoreConformance,
} from '@dcbkit/core/store';
import { describe, expect, it } from 'vitest';
import { memoryStore } from './memory-store.js';

runStoreConformance(() => memoryStore(), { name: 'memoryStore', describe, it });
runReconcileConformance(() => memoryStore(), { name: 'memoryStore', describe, it });
runHistoryConformance(() => memoryStore(), { name: 'memoryStore', describe, it });

describe('memoryStore', () => {
  it('keeps at most historyLimit entries, the newest', async () => {
    const store = memoryStore({ historyLimit: 3 });
    const entry = (n: number) => ({
      recordedAt: new Date(Date.UTC(2030, 0, 1, 0, n)).toISOString(),
      accountKey: 'user_1',
      productUid: 'prod_a',
      source: 'webhook' as const,
      decision: 'applied' as const,
      eventName: `event_${n}`,
      eventKey: null,
      occurredAt: null,
      paymentUid: null,
      subscriptionUid: null,
      statusBefore: null,
      statusAfter: 'ACTIVE' as const,
      unitsBefore: null,
      unitsAfter: null,
    });
    for (let n = 0; n < 10; n++) await store.appendHistory(entry(n));
    const kept = await store.listHistory({ accountKey: 'user_1', limit: 10 });
    expect(kept.map((found) => found.eventName)).toEqual(['event_9', 'event_8', 'event_7']);
    expect(() => memoryStore({ historyLimit: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });

  it('refuses a change that returns the entitlement of another key, writing nothing', async () => {
    const store = memoryStore();
    await expect(
      store.update('user_1', 'prod_a', () =>
        exampleEntitlement({ accountKey: 'user_2', productUid: 'prod_a' }),
      ),
    ).rejects.toThrow(/user_2/);
    expect(await store.get('user_1', 'prod_a')).toBeUndefined();
    expect(await store.get('user_2', 'prod_a')).toBeUndefined();
  });

  it('keeps one Set of order ids per consumable, not a copy per purchase', async () => {
    const store = memoryStore();
    const credits = exampleEntitlement({
      accountKey: 'user_1',
      productUid: 'prod_credits',
      type: 'CONSUMABLE',
    });
    await store.update('user_1', 'prod_credits', () => credits);
    const buy = (orderId: string) =>
      store.update(
        'user_1',
        'prod_credits',
        (current, known) =>
          current && (known.unitOrderId ? current : { ...current, unitsBought: current.unitsBought + 1 }),
        { unitOrderId: orderId, paymentUid: `pay_${orderId}` },
      );
    for (let i = 0; i < 1000; i++) await buy(`ord_${i % 500}`);
    const stored = await store.get('user_1', 'prod_credits');
    expect(stored?.unitsBought).toBe(500);
    expect(JSON.stringify(stored).length).toBe(JSON.stringify({ ...credits, unitsBought: 500 }).length);
    expect((await store.findByPaymentUid('pay_ord_0'))?.unitsBought).toBe(500);
  });
});
