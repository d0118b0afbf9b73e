import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Entitlement, EntitlementKey } from '../schemas/entitlement.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { at, decideAll, KEY, offer, paymentEvent } from '../test-support/fixtures.js';

const monthly = offer('off_monthly');
const credits = offer('off_credits');

function fold(
  events: readonly WebhookEvent[],
  key: EntitlementKey = KEY,
  decidedOffer = monthly,
): Entitlement | undefined {
  return decideAll(events, decidedOffer, key);
}

/** One event of a subscription's life, at a given minute; each kind with the payloads it may carry. */
function subscriptionEvent(minute: number): fc.Arbitrary<WebhookEvent> {
  const occurredAt = at(minute);
  const base = { occurredAt, subscriptionUid: 'sub_1', subscriberUid: 'sbr_1' };
  const paymentUid = fc.constantFrom('pay_1', 'pay_2', 'pay_3', undefined);
  const periodEnd = fc.integer({ min: 1, max: 400 }).map((days) => at(minute + days * 1440));
  return fc.oneof(
    paymentUid.map((uid) =>
      paymentEvent('payment.succeeded', minute, 'off_monthly', {
        subscriptionUid: 'sub_1',
        paymentUid: uid ?? 'pay_1',
      }),
    ),
    paymentUid.map((uid) =>
      paymentEvent('payment.failed', minute, 'off_monthly', { paymentUid: uid ?? 'pay_9' }),
    ),
    fc.record({ paymentUid }).map((fields) => ({ ...base, ...fields, event: 'entitlement.granted' })),
    fc
      .record({ paymentUid, currentPeriodEnd: periodEnd, grace: fc.boolean() })
      .map(({ grace, ...fields }) => ({
        ...base,
        ...fields,
        event: 'entitlement.updated',
        ...(grace
          ? { periodOutstanding: { amount: 1500, currency: 'TND' } }
          : { amountCollected: { amount: 4500, currency: 'TND' } }),
      })),
    fc
      .option(periodEnd, { nil: null })
      .map((cancelAt) => ({ ...base, event: 'subscription.updated', cancelAt })),
    periodEnd.map((trialEndsAt) => ({ ...base, event: 'subscription.trial_started', trialEndsAt })),
    fc.constant({ ...base, event: 'subscription.trial_will_end' }),
    fc
      .constantFrom(
        'entitlement.revoked',
        'subscription.suspended',
        'subscription.canceled',
        'subscription.expired',
        'subscription.failed',
      )
      .map((name) => ({ ...base, event: name })),
  );
}

/** A history: events at strictly increasing minutes, as the service would produce them. */
const history = fc
  .uniqueArray(fc.integer({ min: 0, max: 500_000 }), { minLength: 1, maxLength: 14 })
  .map((minutes) => minutes.sort((a, b) => a - b))
  .chain((minutes) => fc.tuple(...minutes.map(subscriptionEvent)));

/** The same history in any arrival order, with some events delivered more than once. */
const deliveries = history.chain((events) =>
  fc.tuple(
    fc.constant(events),
    fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }),
    fc.array(fc.nat({ max: events.length - 1 }), { maxLength: 5 }),
  ),
);

describe('decide: arrival order does not matter', () => {
  it("any shuffle of a subscription's event history, with redeliveries, ends in the in-order state", () => {
    fc.assert(
      fc.property(deliveries, ([inOrder, shuffled, repeats]) => {
        const redelivered = [...shuffled];
        for (const index of repeats) redelivered.splice(index, 0, inOrder[index] as WebhookEvent);
        expect(fold(redelivered)).toEqual(fold(inOrder));
      }),
      { numRuns: 500 },
    );
  });

  it('consumable units count each order once, whatever the order and the repeats', () => {
    const purchases = fc.array(
      fc.record({ minute: fc.nat({ max: 10_000 }), order: fc.nat({ max: 12 }) }).map(({ minute, order }) =>
        paymentEvent('payment.succeeded', minute, 'off_credits', {
          paymentUid: `pay_${order}`,
          orderId: `ord_${order}`,
        }),
      ),
      { minLength: 1, maxLength: 30 },
    );
    const key = { ...KEY, productUid: 'prod_credits' };
    fc.assert(
      fc.property(
        purchases.chain((events) =>
          fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length })),
        ),
        ([events, shuffled]) => {
          const units = new Set(events.map((e) => e.orderId)).size;
          expect(fold(shuffled, key, credits)?.unitsBought).toBe(units);
          expect(fold(shuffled, key, credits)).toEqual(fold(events, key, credits));
        },
      ),
      { numRuns: 300 },
    );
  });
});
