import { describe, expect, it } from 'vitest';
import type { Entitlement } from '../schemas/entitlement.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { at, event, KEY, offer, paymentEvent } from '../test-support/fixtures.js';
import { type DecideOptions, decide } from './decide.js';

const monthly = offer('off_monthly');
const sub = { subscriptionUid: 'sub_1', subscriberUid: 'sbr_1' };

type Step = WebhookEvent | { read: WebhookEvent; source?: DecideOptions['source'] };

function fold(steps: readonly Step[]): Entitlement | undefined {
  return steps.reduce<Entitlement | undefined>(
    (current, step) =>
      'read' in step
        ? decide(step.read, current, monthly, KEY, { source: step.source ?? 'read' })
        : decide(step, current, monthly, KEY),
    undefined,
  );
}

const paid = paymentEvent('payment.succeeded', 0, 'off_monthly', sub);
const revoked = event('entitlement.revoked', 10, sub);
/** A subscription read at minute 20 that saw the subscription ended. */
const readEnded = { read: event('subscription.expired', 20, { ...sub, subscriptionStatus: 'EXPIRED' }) };
/** The return page's payment read, which proves no time. */
const paymentRead = { read: { ...paid, occurredAt: at(20) }, source: 'untimed_read' as const };

describe('decide: server-side reads never outrank an event', () => {
  it('an older event of the subscription the account had before does not take over a read of the new one', () => {
    // bench/soak's repro: subscription A bought and cancelled at once, B bought a minute later (its
    // return page read holds ACTIVE), then A's webhooks land late (an outage, retries). A's
    // payment.succeeded says ACTIVE too: taking the record over for A, then A's cancellation,
    // left B's subscriber without access and the checkout sold a second subscription.
    const subA = { subscriptionUid: 'sub_a', subscriberUid: 'sbr_1' };
    const subB = { subscriptionUid: 'sub_b', subscriberUid: 'sbr_1' };
    const paidA = paymentEvent('payment.succeeded', 0, 'off_monthly', subA);
    const canceledA = event('subscription.canceled', 1, { ...subA, subscriptionStatus: 'CANCELED' });
    const paidB = paymentEvent('payment.succeeded', 2, 'off_monthly', subB);
    const readB = { read: { ...paidB, occurredAt: at(3) } };
    expect(fold([readB, paidA, canceledA])).toMatchObject({
      status: 'ACTIVE',
      subscriptionUid: 'sub_b',
      lastEventName: 'read:payment.succeeded',
    });
    // Once B's own event lands, the record is the webhooks-only one, in any order.
    const webhooksOnly = fold([paidA, canceledA, paidB]);
    expect(webhooksOnly).toMatchObject({ status: 'ACTIVE', subscriptionUid: 'sub_b' });
    for (const order of [
      [readB, paidA, canceledA, paidB],
      [readB, paidB, paidA, canceledA],
      [paidA, readB, canceledA, paidB],
    ]) {
      expect(fold(order)).toEqual(webhooksOnly);
    }
  });

  it('a read newer than the held event, saying something else, holds the status under a read: marker', () => {
    const entitlement = fold([paid, readEnded]);
    expect(entitlement).toMatchObject({
      status: 'REVOKED',
      lastEventName: 'read:subscription.expired',
      lastEventAt: at(20),
    });
  });

  it('the event the read saw takes the record over when it lands: the webhooks-only record', () => {
    const webhooksOnly = fold([paid, revoked]);
    for (const order of [
      [readEnded, paid, revoked],
      [readEnded, revoked, paid],
      [paid, readEnded, revoked],
      [paid, revoked, readEnded],
    ]) {
      expect(fold(order)).toEqual(webhooksOnly);
    }
  });

  it('a payment read proves no time: it grants a new entitlement, and any event replaces it', () => {
    expect(fold([paymentRead])).toMatchObject({
      status: 'ACTIVE',
      lastEventName: 'read:payment.succeeded',
      lastEventAt: null,
    });
    const webhooksOnly = fold([paid, revoked]);
    for (const order of [
      [paymentRead, revoked, paid],
      [paymentRead, paid, revoked],
      [revoked, paymentRead, paid],
      [paid, revoked, paymentRead],
    ]) {
      expect(fold(order)).toEqual(webhooksOnly);
    }
  });

  it('a read does not replace a held status it agrees with', () => {
    const granted = fold([paid]);
    const readActive = { read: event('subscription.updated', 20, { ...sub, subscriptionStatus: 'ACTIVE' }) };
    expect(fold([paid, readActive])).toEqual(granted);
  });

  it('an event newer than the read wins over it, an older one that says otherwise does not', () => {
    const readCanceling = {
      read: event('subscription.updated', 20, {
        ...sub,
        subscriptionStatus: 'PRE_CANCELED',
        cancelAt: at(99_000),
      }),
    };
    const pre = fold([paid, readCanceling]);
    expect(
      fold([paid, readCanceling, event('entitlement.updated', 5, { ...sub, subscriptionStatus: 'ACTIVE' })]),
    ).toEqual(pre);
    expect(fold([paid, readCanceling, event('entitlement.revoked', 20, sub)])?.lastEventName).toBe(
      'entitlement.revoked',
    );
  });
});
