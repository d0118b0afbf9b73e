import { exampleEntitlement, runStoreConformance } from '@dcbkit/core/testing';
import { describe, expect, it } from 'vitest';
import { memoryStore } from './memory-store.js';

runStoreConformance(() => memoryStore(), { name: 'memoryStore', describe, it });

describe('memoryStore', () => {
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

  it('keeps finding an entitlement by a payment it already had when another payment is added', async () => {
    const store = memoryStore();
    const first = exampleEntitlement({ accountKey: 'user_1', productUid: 'prod_a', paymentUids: ['pay_b'] });
    await store.update('user_1', 'prod_a', () => first);
    await store.update(
      'user_1',
      'prod_a',
      (current) => current && { ...current, paymentUids: ['pay_a', 'pay_b'] },
    );
    expect((await store.findByPaymentUid('pay_a'))?.paymentUids).toEqual(['pay_a', 'pay_b']);
    expect((await store.findByPaymentUid('pay_b'))?.paymentUids).toEqual(['pay_a', 'pay_b']);
  });
});
