import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_NAMES } from '../schemas/event-names.js';
import { SUBSCRIPTION_STATUSES } from '../schemas/statuses.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { businessFactOf, EVENT_MEANINGS, eventFactOf, STATUS_MEANINGS } from './event-meaning.js';

const at = '2030-01-01T00:00:00.000Z';
const event = (fields: Partial<WebhookEvent> & Pick<WebhookEvent, 'event'>): WebhookEvent => ({
  occurredAt: at,
  productUid: 'prod_news',
  offerUid: 'offer_news',
  subscriptionUid: 'sub_1',
  ...fields,
});

describe('what an event means: one table per event name, one per subscription status', () => {
  it('has a row for every event name and every status of the spec, and no other', () => {
    expect(Object.keys(EVENT_MEANINGS).sort()).toEqual([...WEBHOOK_EVENT_NAMES].sort());
    expect(Object.keys(STATUS_MEANINGS).sort()).toEqual([...SUBSCRIPTION_STATUSES].sort());
  });

  it('says an ending for exactly the events that revoke access, and for exactly the ended statuses', () => {
    for (const meaning of Object.values(EVENT_MEANINGS)) {
      expect(meaning.business.tells === 'end').toBe(meaning.access === 'revoke');
    }
    for (const meaning of Object.values(STATUS_MEANINGS)) {
      expect(meaning.business.tells === 'end').toBe(meaning.entitlement === 'REVOKED');
      // A read is decided as the event the service sends for its status: the two tables agree on an end.
      expect(EVENT_MEANINGS[meaning.readAs].access === 'revoke').toBe(meaning.entitlement === 'REVOKED');
    }
  });

  it('knows nothing of a name the spec does not have', () => {
    expect(eventFactOf('subscription.paused')).toEqual({ tells: 'nothing' });
  });
});

describe('businessFactOf: what an event or a read tells the business view', () => {
  it('lets an ended status win over the event’s name, and names the cause', () => {
    const canceled = event({ event: 'entitlement.updated', subscriptionStatus: 'CANCELED' });
    expect(businessFactOf(canceled, 'event', null)).toEqual({ tells: 'end', ending: 'canceled' });
    // A trial whose first charge never came ends for want of payment.
    expect(businessFactOf(event({ event: 'subscription.failed' }), 'event', null)).toEqual({
      tells: 'end',
      ending: 'suspended',
    });
  });

  it('tells a first payment from a trial begun by it', () => {
    const paid = event({ event: 'payment.succeeded', paymentUid: 'pay_1', orderId: 'ord_1' });
    expect(businessFactOf(paid, 'event', null)).toEqual({ tells: 'purchase' });
    const trial = event({ event: 'payment.succeeded', paymentUid: 'pay_1', subscriptionStatus: 'TRIALING' });
    expect(businessFactOf(trial, 'event', null)).toEqual({ tells: 'trial' });
  });

  it('tells a renewal collected from one left outstanding, and a renewal that says neither from both', () => {
    const money = { amount: 500, currency: 'TND' };
    const zero = { amount: 0, currency: 'TND' };
    const collected = event({ event: 'entitlement.updated', orderId: 'ord_2', amountCollected: money });
    expect(businessFactOf(collected, 'event', null)).toEqual({ tells: 'charge' });
    const outstanding = event({
      event: 'entitlement.updated',
      periodOutstanding: money,
      amountCollected: zero,
    });
    expect(businessFactOf(outstanding, 'event', null)).toEqual({ tells: 'grace' });
    expect(businessFactOf(event({ event: 'entitlement.updated' }), 'event', null)).toEqual({
      tells: 'nothing',
    });
  });

  it('reads a subscription by its status, a trial already seen and a payment read alone telling nothing', () => {
    const read = (subscriptionStatus: WebhookEvent['subscriptionStatus'], name: WebhookEvent['event']) =>
      event({ event: name, subscriptionStatus });
    expect(businessFactOf(read('IN_GRACE', 'entitlement.updated'), 'read', at)).toEqual({ tells: 'grace' });
    expect(businessFactOf(read('TRIALING', 'subscription.updated'), 'read', null)).toEqual({
      tells: 'trial',
    });
    expect(businessFactOf(read('TRIALING', 'subscription.updated'), 'read', at)).toEqual({
      tells: 'nothing',
    });
    expect(businessFactOf(read('ACTIVE', 'payment.succeeded'), 'read', null)).toEqual({ tells: 'nothing' });
    expect(businessFactOf(read('EXPIRED', 'subscription.expired'), 'read', at)).toEqual({
      tells: 'end',
      ending: 'expired',
    });
  });
});
