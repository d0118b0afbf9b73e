import { describe, expect, it } from 'vitest';
import { defineOffers } from '../offers/define-offers.js';
import { exampleEntitlement } from '../store/conformance/example-entitlement.js';
import { memoryStore } from '../store/memory-store.js';
import { createPartnerRoutes, type RouteInput } from './partner-routes.js';
import { fakeClient, waitingPayment } from './test-support/fake-client.js';

const SHOP = 'https://shop.example';
const DAY_MS = 86_400_000;
const offers = defineOffers([
  {
    offerUid: 'off_day',
    productUid: 'prod_day',
    name: 'Day pass',
    type: 'CONSUMABLE',
    price: { amount: 1000, currency: 'TND' },
    unitAccessSeconds: 86_400,
  },
]);

/** The routes over a store holding `passes` day passes of alice's, on a clock the test moves. */
async function routesWithPasses(passes: number) {
  const clock = { now: new Date('2030-03-01T10:00:00.000Z') };
  const store = memoryStore();
  await store.update('alice', 'prod_day', () =>
    exampleEntitlement({
      accountKey: 'alice',
      productUid: 'prod_day',
      offerUid: 'off_day',
      type: 'CONSUMABLE',
      subscriptionUid: null,
      unitsBought: passes,
      unitAccessSeconds: 86_400,
    }),
  );
  const routes = createPartnerRoutes({
    client: fakeClient(waitingPayment((uid) => `https://checkout.example/c/${uid}`)),
    store,
    offers,
    grantSucceededPayment: async () => ({ outcome: 'not_succeeded', entitlement: undefined }),
    returnUrl: `${SHOP}/return`,
    now: () => clock.now,
  });
  const spend = () =>
    routes.spendUnit({
      accountKey: 'alice',
      method: 'POST',
      fields: { productUid: 'prod_day', token: routes.formToken('alice') },
      request: { origin: SHOP, secFetchSite: 'same-origin', simpleBody: true },
    } satisfies RouteInput);
  return { routes, clock, spend };
}

describe('spendUnit on a day pass', () => {
  it('opens the gate from the spend for a day by the kit clock, and says until when', async () => {
    const { routes, clock, spend } = await routesWithPasses(2);
    expect((await routes.checkAccess('alice', 'prod_day')).allowed).toBe(false);

    const spent = await spend();
    const until = new Date(clock.now.getTime() + DAY_MS).toISOString();
    expect(spent).toMatchObject({
      type: 'view',
      view: { kind: 'unit_spent', unitsLeft: 1, accessEndsAt: until },
    });
    expect((await routes.checkAccess('alice', 'prod_day')).allowed).toBe(true);

    // The second pass, used the same afternoon, adds a day after the first.
    clock.now = new Date(clock.now.getTime() + 5 * 3_600_000);
    const second = await spend();
    const twoDays = new Date(Date.parse(until) + DAY_MS).toISOString();
    expect(second).toMatchObject({ view: { unitsLeft: 0, accessEndsAt: twoDays } });

    clock.now = new Date(Date.parse(twoDays) - 1);
    expect((await routes.checkAccess('alice', 'prod_day')).allowed).toBe(true);
    clock.now = new Date(twoDays);
    expect((await routes.checkAccess('alice', 'prod_day')).allowed).toBe(false);
    await expect(spend()).rejects.toMatchObject({ code: 'conflict' });
  });
});
