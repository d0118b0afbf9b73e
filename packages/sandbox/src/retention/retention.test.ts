import { paymentSchema } from '@dcbkit/core/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../start/start-sandbox.js';
import {
  apiGet,
  apiPost,
  createPayment,
  dataOf,
  expectApiError,
  getToken,
  paymentBody,
} from '../test-support/api-client.js';
import { startTestSandbox } from '../test-support/sandbox-fixture.js';
import { createCheckoutDriver } from '../testing/checkout-driver.js';

const HOUR = 3600;
let sandbox: Sandbox;
afterEach(() => sandbox.close());

describe('retention of ended payments and settled events', () => {
  it('frees them after the configured time; ownership (CAT-109) and live payments stay', async () => {
    sandbox = await startTestSandbox({
      configure: (config) => {
        config.retention = { endedPaymentsSeconds: HOUR, deliveredEventsSeconds: HOUR };
      },
    });
    const token = await getToken(sandbox);
    const create = async (offerUid: string, extra: Record<string, unknown> = {}) =>
      dataOf(
        await createPayment(sandbox, await getToken(sandbox), paymentBody(offerUid, extra)),
        paymentSchema,
      );
    const cancelled = await create('offer_day_pass');
    await apiPost(sandbox, `/v1/payments/${cancelled.paymentUid}/cancel`, { token });
    const unlock = await create('offer_full_unlock');
    await createCheckoutDriver(sandbox).pay(unlock.checkoutUrl, { msisdn: '+21690000000' });
    const trial = await create('offer_premium_monthly');
    await createCheckoutDriver(sandbox).pay(trial.checkoutUrl, { msisdn: '+21690000000' });
    const open = await create('offer_day_pass');
    const eventsBefore = sandbox.webhooks().map((delivery) => delivery.id);
    expect(eventsBefore.length).toBeGreaterThan(0);

    await sandbox.advanceClock(HOUR + 1);
    // Freeing happens as new work comes in: the next create and the next event.
    const later = await create('offer_day_pass');
    const fresh = await getToken(sandbox);
    expectApiError(await apiGet(sandbox, `/v1/payments/${cancelled.paymentUid}`, fresh), 'PAY-107');
    expectApiError(await apiGet(sandbox, `/v1/payments/${unlock.paymentUid}`, fresh), 'PAY-107');
    // A subscription's first payment lives with the subscription; an expired one waits its turn.
    expect((await apiGet(sandbox, `/v1/payments/${trial.paymentUid}`, fresh)).status).toBe(200);
    expect(
      dataOf(await apiGet(sandbox, `/v1/payments/${open.paymentUid}`, fresh), paymentSchema).status,
    ).toBe('EXPIRED');
    expect((await apiGet(sandbox, `/v1/payments/${later.paymentUid}`, fresh)).status).toBe(200);
    // The unlock's payment is gone, its ownership is not.
    expectApiError(
      await createPayment(
        sandbox,
        fresh,
        paymentBody('offer_full_unlock', { prefill: { msisdn: '+21690000000' } }),
      ),
      'CAT-109',
    );

    await createCheckoutDriver(sandbox).abandon(later.checkoutUrl);
    const eventsAfter = sandbox.webhooks().map((delivery) => delivery.id);
    expect(eventsAfter.some((id) => eventsBefore.includes(id))).toBe(false);
    expect(eventsAfter).toHaveLength(1);
  });
});
