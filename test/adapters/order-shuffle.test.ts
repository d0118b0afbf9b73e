import type { RequestListener } from 'node:http';
import { signWebhook } from '@dcbkit/core/webhooks';
import type { Sandbox } from '@dcbkit/sandbox';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { expectEveryEntitlementExplained } from '../support/explain-every.js';
import { listen, type RunningServer } from '../support/listen.js';
import { APP_VARIANTS } from '../support/partner-apps.js';
import { createPartnerKit } from '../support/partner-kit.js';

/**
 * A subscription whose cancellation at period end and its withdrawal share an instant (as the
 * sandbox sends them when a subscriber cancels and resumes at once), delivered through each
 * framework in every order: the outcome never depends on which arrived last.
 */
function history(sandbox: Sandbox, accountKey: string) {
  const start = sandbox.clock.now().getTime();
  const minute = (m: number) => new Date(start + m * 60_000).toISOString();
  const periodEnd = minute(30 * 1440);
  const common = {
    paymentUid: `pay_${accountKey}`,
    status: 'SUCCEEDED',
    productUid: 'prod_premium',
    offerUid: 'offer_premium_monthly',
    subscriberUid: 'sbr_shuffle',
    subscriptionUid: `sub_${accountKey}`,
    metadata: { accountKey },
    currentPeriodEnd: periodEnd,
  };
  return [
    { ...common, event: 'payment.succeeded', subscriptionStatus: 'ACTIVE', occurredAt: minute(0) },
    {
      ...common,
      event: 'subscription.updated',
      subscriptionStatus: 'PRE_CANCELED',
      cancelAt: periodEnd,
      occurredAt: minute(5),
    },
    {
      ...common,
      event: 'subscription.updated',
      subscriptionStatus: 'ACTIVE',
      cancelAt: null,
      occurredAt: minute(5),
    },
  ];
}

const ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [2, 1, 0],
  [1, 0, 2, 1],
];

describe.each(APP_VARIANTS)('$name: same-instant events in any order', (variant) => {
  let sandbox: Sandbox;
  let app: RunningServer;
  let kit: ReturnType<typeof createPartnerKit>;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    let listener: RequestListener = (_req, res) => res.end();
    app = await listen((req, res) => listener(req, res));
    kit = createPartnerKit(sandbox, `${app.url}/return`);
    listener = await variant.build(kit, 'none');
  });
  afterAll(async () => {
    expect(await expectEveryEntitlementExplained(kit)).toBe(ORDERS.length);
    await app.close();
    await sandbox.close();
  });

  it('ends with the same entitlement, still giving access after the period', async () => {
    const records = [];
    for (const [index, order] of ORDERS.entries()) {
      const account = `shuffle_${index}`;
      const events = history(sandbox, account);
      for (const position of order) {
        const body = JSON.stringify(events[position]);
        const signature = signWebhook({ payload: body, secret: sandbox.credentials.webhookSecret });
        const response = await request(app.url)
          .post('/webhooks/dcb')
          .set({ 'content-type': 'application/json', 'service-signature': signature })
          .send(body);
        expect(response.status).toBe(200);
      }
      const entitlement = await kit.store.get(account, 'prod_premium');
      // Each order runs on its own account and ids (the ledger would take the same ids for repeats).
      records.push({ ...entitlement, accountKey: '', subscriptionUid: '' });
    }
    for (const record of records) expect(record).toEqual(records[0]);
    expect(records[0]).toMatchObject({
      status: 'ACTIVE',
      cancelAt: null,
      lastEventName: 'subscription.updated',
    });
  });
});
