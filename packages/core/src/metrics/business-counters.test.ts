import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { chargeFields, dayAt, signedRequest, subscriptionEvent } from '../test-support/fixtures.js';
import { offlineKit } from '../test-support/offline-kit.js';
import { useTestMeter } from '../test-support/otel-meter.js';

const exported = useTestMeter();

const day = dayAt;

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
});
