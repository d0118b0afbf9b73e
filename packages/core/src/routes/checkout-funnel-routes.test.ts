import { describe, expect, it } from 'vitest';
import { checkoutFunnel } from '../metrics/checkout-funnel.js';
import type { MetricEntry } from '../metrics/metric-entry.js';
import { memoryStore } from '../store/memory-store.js';
import { offers } from '../test-support/fixtures.js';
import { createPartnerRoutes, type RouteInput } from './partner-routes.js';
import { fakeClient, waitingPayment } from './test-support/fake-client.js';

const SHOP = 'https://shop.example';
const NOW = new Date('2030-01-31T23:00:00.000Z');
const LATER = new Date('2030-02-01T01:00:00.000Z');

function routesOn(store: ReturnType<typeof memoryStore>, warnings: string[] = []) {
  let now = NOW;
  const routes = createPartnerRoutes({
    client: fakeClient(waitingPayment((uid) => `https://checkout.example/c/${uid}`)),
    store,
    offers,
    grantSucceededPayment: async () => ({ outcome: 'not_succeeded', entitlement: undefined }),
    returnUrl: `${SHOP}/return`,
    checkoutBaseUrl: 'https://checkout.example',
    now: () => now,
    logger: { warn: (_fields, message) => warnings.push(message) },
  });
  const input = (fields: Record<string, unknown>) =>
    ({
      accountKey: 'alice',
      method: 'POST',
      fields: { token: routes.formToken('alice'), ...fields },
      request: { origin: SHOP, secFetchSite: 'same-origin', simpleBody: true },
    }) satisfies RouteInput;
  return {
    checkout: () => routes.checkout(input({ offerUid: 'off_unlock', nonce: 'n'.repeat(32) })),
    cancel: (paymentUid: string) => {
      now = LATER;
      return routes.cancelPayment(input({ paymentUid }));
    },
  };
}

const month = {
  from: new Date('2030-01-01T00:00:00Z'),
  to: new Date('2030-03-01T00:00:00Z'),
  interval: 'month' as const,
};

describe('the partner routes put their checkouts in the funnel', () => {
  it('counts a checkout started in January and cancelled in February as January’s', async () => {
    const store = memoryStore();
    const { checkout, cancel } = routesOn(store);
    expect((await checkout()).type).toBe('redirect');
    await cancel('pay_1');
    const { days } = await store.readMetricDays({ from: '2030-01-01', to: '2030-03-01' });
    const rows = checkoutFunnel(month, days, offers.list).rows.filter((row) => row.offerUid === 'off_unlock');
    expect(
      rows.map(({ start, started, canceled, pending }) => ({ start, started, canceled, pending })),
    ).toEqual([
      { start: '2030-01-01T00:00:00.000Z', started: 1, canceled: 1, pending: 0 },
      { start: '2030-02-01T00:00:00.000Z', started: 0, canceled: 0, pending: 0 },
    ]);
  });

  it('sends the subscriber to pay when the start cannot be written, and the ending writes it', async () => {
    const store = memoryStore();
    let failures = 1;
    const failingOnce = {
      ...store,
      async recordMetrics(entries: readonly MetricEntry[]) {
        if (failures-- > 0) throw new Error('metrics table unavailable');
        return store.recordMetrics(entries);
      },
    };
    const warnings: string[] = [];
    const { checkout, cancel } = routesOn(failingOnce as typeof store, warnings);
    expect((await checkout()).type).toBe('redirect');
    expect(warnings).toEqual([expect.stringContaining('checkout funnel')]);
    await cancel('pay_1');
    const { days } = await store.readMetricDays({ from: '2030-01-01', to: '2030-03-01' });
    const [january] = checkoutFunnel(month, days, offers.list).rows.filter(
      (row) => row.offerUid === 'off_unlock',
    );
    expect(january).toMatchObject({ started: 1, canceled: 1, pending: 0 });
  });
});
