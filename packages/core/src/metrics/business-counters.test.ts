import { describe, expect, it } from 'vitest';
import { factRecorder } from '../apply/record-facts.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { isMetricsStore } from '../store/metrics-store.js';
import { chargeFields, dayAt, signedRequest, subscriptionEvent } from '../test-support/fixtures.js';
import { offlineKit } from '../test-support/offline-kit.js';
import { useTestMeter } from '../test-support/otel-meter.js';
import { checkoutEndEntry, checkoutStartedEntry } from './checkout-facts.js';

const exported = useTestMeter();

const day = dayAt;

/** The facts' recorder the kit's parts use, on the kit's store and the registered meter. */
function factRecorderFor(kit: ReturnType<typeof offlineKit>) {
  const record = factRecorder(isMetricsStore(kit.store) ? kit.store : undefined);
  if (record === undefined) throw new Error('the test meter is registered: facts are recorded');
  return record;
}

const event = (name: string, days: number, fields: Partial<WebhookEvent> = {}) =>
  subscriptionEvent('off_monthly', name, days, fields);
const collected = (orderId: string, days: number, periodEnd: number) =>
  event('entitlement.updated', days, chargeFields(orderId, periodEnd));

describe('the business as OpenTelemetry counters', () => {
  it('counts each fact once across redeliveries, payments by status, access, webhook answers by outcome', async () => {
    const kit = offlineKit();
    const life = [
      event('payment.succeeded', 0, {
        orderId: 'ord_0',
        subscriptionStatus: 'ACTIVE',
        currentPeriodEnd: day(30),
      }),
      collected('ord_1', 30, 60),
      event('entitlement.updated', 60, {
        subscriptionStatus: 'IN_GRACE',
        currentPeriodEnd: day(60),
        amountCollected: { amount: 0, currency: 'TND' },
        periodOutstanding: { amount: 4500, currency: 'TND' },
      }),
      collected('ord_2', 61, 91),
      event('subscription.canceled', 70, { subscriptionStatus: 'CANCELED', currentPeriodEnd: day(91) }),
      event('payment.failed', 71, { paymentUid: 'pay_2', status: 'FAILED' }),
    ];
    for (const one of life) {
      for (let copy = 0; copy < 2; copy++) await kit.webhook(signedRequest(one, new Date()));
    }
    const points = await exported();
    expect(points).toEqual(
      expect.arrayContaining([
        'dcbkit.renewals{dcbkit.offer=off_monthly,dcbkit.result=collected} 2',
        'dcbkit.renewals{dcbkit.offer=off_monthly,dcbkit.result=failed} 1',
        'dcbkit.renewals{dcbkit.offer=off_monthly,dcbkit.result=grace_recovered} 1',
        'dcbkit.subscriptions.ended{dcbkit.cause=canceled,dcbkit.offer=off_monthly} 1',
        'dcbkit.payments{dcbkit.offer=off_monthly,dcbkit.status=succeeded} 1',
        'dcbkit.payments{dcbkit.offer=off_monthly,dcbkit.status=failed} 1',
        'dcbkit.access{dcbkit.change=granted,dcbkit.product=prod_premium} 1',
        'dcbkit.access{dcbkit.change=revoked,dcbkit.product=prod_premium} 1',
        'dcbkit.webhook.deliveries{dcbkit.outcome=accepted} 6',
        'dcbkit.webhook.deliveries{dcbkit.outcome=duplicate} 6',
      ]),
    );
    expect(points.filter((point) => point.startsWith('dcbkit.renewals'))).toHaveLength(3);
  });

  it('counts the checkout funnel once per checkout, by outcome and code, as the store counted it', async () => {
    const kit = offlineKit();
    const facts = [
      { paymentUid: 'pay_a', status: 'FAILED', failureCode: 'PAY-101' },
      { paymentUid: 'pay_b', status: 'FAILED', failureCode: 'SUB-108' },
      { paymentUid: 'pay_c', status: 'SUCCEEDED' },
    ] as const;
    const record = factRecorderFor(kit);
    for (const { paymentUid, ...ending } of facts) {
      const checkout = {
        paymentUid,
        offerUid: 'off_monthly',
        productUid: 'prod_premium',
        recordedAt: day(0),
      };
      const entries = [checkoutStartedEntry(checkout, 'TND'), checkoutEndEntry(checkout, ending, 'TND')];
      // Told twice (the return page's read, then the webhook): counted once.
      for (let copy = 0; copy < 2; copy++) await record(entries.filter((entry) => entry !== undefined));
    }
    expect(await exported()).toEqual(
      expect.arrayContaining([
        'dcbkit.checkouts{dcbkit.offer=off_monthly,dcbkit.outcome=started} 3',
        'dcbkit.checkouts{dcbkit.code=PAY-101,dcbkit.offer=off_monthly,dcbkit.outcome=failed} 1',
        'dcbkit.checkouts{dcbkit.code=SUB-108,dcbkit.offer=off_monthly,dcbkit.outcome=refused} 1',
        'dcbkit.checkouts{dcbkit.offer=off_monthly,dcbkit.outcome=succeeded} 1',
      ]),
    );
  });
});
