import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopUnderTest, shopUnderTest } from '../test-support/shop-under-test.js';

// The load balancer's probes, over HTTP (supertest) against the shop on its embedded sandbox.
describe('the health endpoints', () => {
  let shop: ShopUnderTest;

  beforeAll(async () => {
    shop = await shopUnderTest();
  });
  afterAll(() => shop?.close());

  const probe = (path: string) => request(shop.app).get(path);

  it('answers /health/live with 200 and sets no cookie', async () => {
    const response = await probe('/health/live');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('answers /health/ready with 200 when the store and the embedded sandbox answer, without a sign-in', async () => {
    const response = await probe('/health/ready');
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    // The embedded sandbox answers for the service: readiness says it is the emulator.
    expect(response.body).toEqual({
      ready: true,
      store: { ok: true },
      service: { ok: true },
      billing: 'emulator',
    });
  });

  it('answers /health/ready with 503 when the store fails, naming the code but not the message', async () => {
    const { store } = shop.billing.kit;
    const get = store.get;
    store.get = async () => {
      throw new Error('connection refused by db.internal:5432');
    };
    try {
      const response = await probe('/health/ready');
      expect(response.status).toBe(503);
      const body = response.text;
      expect(JSON.parse(body)).toEqual({
        ready: false,
        store: { ok: false, code: 'error' },
        service: { ok: true },
        billing: 'emulator',
      });
      expect(body).not.toContain('db.internal');
    } finally {
      store.get = get;
    }
    expect((await probe('/health/ready')).status).toBe(200);
  });
});
