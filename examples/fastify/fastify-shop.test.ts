/**
 * The Fastify example, as `main.ts` starts it, paid once through the embedded sandbox the way a
 * subscriber pays (examples/test-support/sells-the-full-version.ts).
 */
import { createClock } from '@dcbkit/sandbox/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { sellsTheFullVersionOnce } from '../test-support/sells-the-full-version.js';
import { type RunningShop, startShop } from './start-shop.js';

let shop: RunningShop;
beforeAll(async () => {
  shop = await startShop({ clock: createClock({ frozen: true }) });
});
afterAll(() => shop?.close());

describe('the Fastify example shop', () => {
  it('sells the full version once: form, checkout, return page, gate and webhook agree', async () => {
    await sellsTheFullVersionOnce(shop);
  });
});
