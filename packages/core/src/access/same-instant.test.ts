import { describe, expect, it } from 'vitest';
import type { Entitlement } from '../schemas/entitlement.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { at, event, KEY, offer, paymentEvent, T0 } from '../test-support/fixtures.js';
import { decide, tiesWithHeld } from './decide.js';
import { hasAccess } from './has-access.js';

const monthly = offer('off_monthly');
const sub = { subscriptionUid: 'sub_1', subscriberUid: 'sbr_1' };
const PERIOD_END = at(30 * 1440);
const afterPeriod = new Date(T0 + 31 * 86_400_000);

function fold(events: readonly WebhookEvent[], start?: Entitlement): Entitlement | undefined {
  return events.reduce<Entitlement | undefined>((current, e) => decide(e, current, monthly, KEY), start);
}

const paid = paymentEvent('payment.succeeded', 0, 'off_monthly', { ...sub, currentPeriodEnd: PERIOD_END });
// The sandbox sends both at the same instant when the subscriber cancels and resumes at once.
const cancel = event('subscription.updated', 10, {
  ...sub,
  subscriptionStatus: 'PRE_CANCELED',
  cancelAt: PERIOD_END,
});
const resume = event('subscription.updated', 10, { ...sub, subscriptionStatus: 'ACTIVE', cancelAt: null });

describe('decide: events at the same instant', () => {
  it('a cancellation and its withdrawal end the same whichever arrives last: the one with more access', () => {
    const resumeFirst = fold([paid, resume, cancel]);
    const cancelFirst = fold([paid, cancel, resume]);
    expect(resumeFirst).toEqual(cancelFirst);
    expect(resumeFirst).toMatchObject({ status: 'ACTIVE', cancelAt: null });
    // Before the fix the last arrival won: resume-first ended PRE_CANCELED, without access after the period.
    expect(hasAccess(resumeFirst, afterPeriod)).toBe(true);
  });

  it('also when the events come before their payment, and repeated', () => {
    const orders = [
      [cancel, resume, paid],
      [resume, paid, cancel, resume],
      [cancel, paid, cancel, resume, cancel],
    ];
    const expected = fold([paid, cancel, resume]);
    for (const order of orders) expect(fold(order)).toEqual(expected);
  });

  it('two cancellations at the same instant with other dates: the later date wins, either way', () => {
    const early = { ...cancel, cancelAt: at(20 * 1440) };
    expect(fold([paid, early, cancel])).toEqual(fold([paid, cancel, early]));
    expect(fold([paid, early, cancel])?.cancelAt).toBe(PERIOD_END);
  });

  it('revocations at one instant end with the same record, lastEventName included', () => {
    const names = ['subscription.canceled', 'entitlement.revoked', 'subscription.expired'];
    const revocations = names.map((name) => event(name, 10, sub));
    const expected = fold([paid, ...revocations]);
    expect(fold([paid, ...revocations.toReversed()])).toEqual(expected);
    expect(
      fold([
        revocations[1] as WebhookEvent,
        paid,
        revocations[2] as WebhookEvent,
        revocations[0] as WebhookEvent,
      ]),
    ).toEqual(expected);
    expect(expected?.status).toBe('REVOKED');
  });

  it('the subscriber of a new subscription to the same product wins, whatever arrives first', () => {
    const ended = event('subscription.expired', 10, sub);
    const again = paymentEvent('payment.succeeded', 20, 'off_monthly', {
      paymentUid: 'pay_2',
      subscriptionUid: 'sub_2',
      subscriberUid: 'sbr_2',
    });
    const inOrder = fold([paid, ended, again]);
    expect(inOrder).toMatchObject({ subscriptionUid: 'sub_2', subscriberUid: 'sbr_2' });
    // Before the fix the first subscriber seen stayed for good.
    expect(fold([again, paid, ended])).toEqual(inOrder);
    expect(fold([ended, again, paid])).toEqual(inOrder);
  });

  describe('a read that confirms the status settles the tie', () => {
    const held = fold([paid, resume]);

    it('tiesWithHeld tells a same-instant tie of two outcomes, and nothing else', () => {
      expect(tiesWithHeld(cancel, held, monthly)).toBe(true);
      expect(tiesWithHeld(resume, held, monthly)).toBe(false);
      expect(
        tiesWithHeld(event('subscription.updated', 11, { ...sub, cancelAt: PERIOD_END }), held, monthly),
      ).toBe(false);
      expect(tiesWithHeld(event('entitlement.revoked', 10, sub), held, monthly)).toBe(false);
      expect(tiesWithHeld(cancel, undefined, monthly)).toBe(false);
    });

    it('the confirmed outcome wins whichever arrived first', () => {
      const options = { confirmedStatus: 'PRE_CANCELED' as const };
      const resumeFirst = decide(cancel, fold([paid, resume]), monthly, KEY, options);
      const cancelFirst = decide(resume, fold([paid, cancel]), monthly, KEY, options);
      expect(resumeFirst).toEqual(cancelFirst);
      expect(resumeFirst).toMatchObject({ status: 'PRE_CANCELED', cancelAt: PERIOD_END });
    });

    it('a confirmation naming neither outcome leaves the rule to decide', () => {
      const options = { confirmedStatus: 'REVOKED' as const };
      expect(decide(cancel, fold([paid, resume]), monthly, KEY, options)).toEqual(
        fold([paid, resume, cancel]),
      );
    });
  });
});
