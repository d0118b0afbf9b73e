import { describe, expect, it } from 'vitest';
import type { Entitlement } from '../schemas/entitlement.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { at, DAY, decideAll, event, KEY, offer, paymentEvent, T0 } from '../test-support/fixtures.js';
import { decide, factsOf } from './decide.js';
import { availableUnits, hasAccess } from './has-access.js';

const monthly = offer('off_monthly');
const withTrial = offer('off_trial');
const credits = offer('off_credits');
const unlock = offer('off_unlock');
const sub = { subscriptionUid: 'sub_1' };

function must(entitlement: Entitlement | undefined): Entitlement {
  if (entitlement === undefined) throw new Error('expected an entitlement');
  return entitlement;
}

/** A monthly subscription granted by payment.succeeded at minute 0. */
function subscribed(): Entitlement {
  return must(
    decide(
      paymentEvent('payment.succeeded', 0, 'off_monthly', { ...sub, currentPeriodEnd: at(30 * 1440) }),
      undefined,
      monthly,
      KEY,
    ),
  );
}

const inMinutes = (minutes: number) => new Date(T0 + minutes * 60_000);

describe('decide: the access rules table', () => {
  describe('payment.succeeded', () => {
    it('SUBSCRIPTION: grants, with the payment, subscription and period recorded', () => {
      const entitlement = subscribed();
      expect(entitlement).toMatchObject({
        ...KEY,
        offerUid: 'off_monthly',
        type: 'SUBSCRIPTION',
        status: 'ACTIVE',
        subscriptionUid: 'sub_1',
        subscriberUid: 'sbr_1',
        currentPeriodEnd: at(30 * 1440),
        lastEventName: 'payment.succeeded',
        lastEventAt: at(0),
      });
      expect(hasAccess(entitlement, inMinutes(1))).toBe(true);
    });

    it('SUBSCRIPTION with trial days: a trialing grant until the trial ends', () => {
      const entitlement = must(
        decide(paymentEvent('payment.succeeded', 0, 'off_trial', sub), undefined, withTrial, {
          ...KEY,
          productUid: 'prod_trial',
        }),
      );
      expect(entitlement.status).toBe('TRIALING');
      expect(entitlement.trialEndsAt).toBe(new Date(T0 + 7 * DAY).toISOString());
      expect(hasAccess(entitlement, inMinutes(1))).toBe(true);
    });

    it('CONSUMABLE: adds one unit per orderId, never twice for the same order', () => {
      const key = { ...KEY, productUid: 'prod_credits' };
      const first = must(
        decide(
          paymentEvent('payment.succeeded', 0, 'off_credits', { orderId: 'ord_1' }),
          undefined,
          credits,
          key,
        ),
      );
      // The store knows ord_1 from the first delivery.
      const again = must(
        decide(
          paymentEvent('payment.succeeded', 0, 'off_credits', { orderId: 'ord_1' }),
          first,
          credits,
          key,
          {
            known: { paymentUid: true, unitOrderId: true },
          },
        ),
      );
      const second = must(
        decide(
          paymentEvent('payment.succeeded', 5, 'off_credits', { paymentUid: 'pay_2', orderId: 'ord_2' }),
          again,
          credits,
          key,
        ),
      );
      expect(availableUnits(first)).toBe(1);
      expect(again).toEqual(first);
      expect(second.unitsBought).toBe(2);
      expect(availableUnits(second)).toBe(2);
      expect(hasAccess(second)).toBe(true);
    });

    it('CONSUMABLE selling time: copies how long a spent unit gives access, keeps the running end', () => {
      const dayPass = { ...credits, unitAccessSeconds: 86_400 };
      const key = { ...KEY, productUid: 'prod_day' };
      const bought = must(
        decide(
          paymentEvent('payment.succeeded', 0, 'off_credits', { orderId: 'ord_1' }),
          undefined,
          dayPass,
          key,
        ),
      );
      expect(bought).toMatchObject({ unitsBought: 1, unitAccessSeconds: 86_400, unitAccessEndsAt: null });
      // Held, not spent: no access yet.
      expect(hasAccess(bought, inMinutes(1))).toBe(false);
      // A record from before the offer sold time takes its terms with the next purchase, and a
      // day running stays running.
      const running = { ...bought, unitsUsed: 1, unitAccessSeconds: null, unitAccessEndsAt: at(1440) };
      const again = must(
        decide(
          paymentEvent('payment.succeeded', 5, 'off_credits', { paymentUid: 'pay_2', orderId: 'ord_2' }),
          running,
          dayPass,
          key,
        ),
      );
      expect(again).toMatchObject({ unitsBought: 2, unitAccessSeconds: 86_400, unitAccessEndsAt: at(1440) });
      expect(
        must(decide(paymentEvent('payment.succeeded', 0, 'off_credits'), undefined, credits, key))
          .unitAccessSeconds,
      ).toBe(null);
    });

    it('NON_CONSUMABLE: a permanent unlock', () => {
      const entitlement = must(
        decide(paymentEvent('payment.succeeded', 0, 'off_unlock', { orderId: 'ord_1' }), undefined, unlock, {
          ...KEY,
          productUid: 'prod_unlock',
        }),
      );
      expect(entitlement).toMatchObject({ type: 'NON_CONSUMABLE', status: 'ACTIVE', unitsBought: 0 });
      expect(hasAccess(entitlement, new Date('2099-01-01T00:00:00Z'))).toBe(true);
    });
  });

  it('payment.failed: no access change, and no entitlement made', () => {
    const current = subscribed();
    expect(
      decide(
        paymentEvent('payment.failed', 5, 'off_monthly', { paymentUid: 'pay_2' }),
        current,
        monthly,
        KEY,
      ),
    ).toBe(current);
    expect(decide(paymentEvent('payment.failed', 5, 'off_monthly'), undefined, monthly, KEY)).toBeUndefined();
  });

  describe('entitlement.granted', () => {
    it('grants', () => {
      const entitlement = must(
        decide(event('entitlement.granted', 0, { ...sub, offerUid: 'off_monthly' }), undefined, monthly, KEY),
      );
      expect(entitlement.status).toBe('ACTIVE');
      expect(hasAccess(entitlement)).toBe(true);
    });

    it('reactivates a revoked subscription', () => {
      const revoked = must(decide(event('entitlement.revoked', 10, sub), subscribed(), monthly, KEY));
      const reactivated = must(decide(event('entitlement.granted', 20, sub), revoked, monthly, KEY));
      expect(hasAccess(revoked, inMinutes(15))).toBe(false);
      expect(reactivated.status).toBe('ACTIVE');
      expect(hasAccess(reactivated, inMinutes(21))).toBe(true);
    });
  });

  describe('entitlement.updated', () => {
    it('a collected renewal keeps access and moves the period end forward', () => {
      const renewed = must(
        decide(
          event('entitlement.updated', 30 * 1440, {
            ...sub,
            currentPeriodEnd: at(60 * 1440),
            amountCollected: { amount: 4500, currency: 'TND' },
          }),
          subscribed(),
          monthly,
          KEY,
        ),
      );
      expect(renewed.status).toBe('ACTIVE');
      expect(renewed.currentPeriodEnd).toBe(at(60 * 1440));
      expect(hasAccess(renewed, inMinutes(45 * 1440))).toBe(true);
    });

    it('grace with access by the grace policy: access for its days, then none', () => {
      const grace = must(
        decide(
          event('entitlement.updated', 100, { ...sub, subscriptionStatus: 'IN_GRACE' }),
          subscribed(),
          monthly,
          KEY,
        ),
      );
      expect(grace.status).toBe('IN_GRACE');
      expect(grace.graceEndsAt).toBe(new Date(T0 + 100 * 60_000 + 3 * DAY).toISOString());
      expect(hasAccess(grace, inMinutes(100 + 2 * 1440))).toBe(true);
      expect(hasAccess(grace, inMinutes(100 + 3 * 1440))).toBe(false);
    });

    it('grace is also told by an outstanding amount when the status is not sent', () => {
      const grace = must(
        decide(
          event('entitlement.updated', 100, { ...sub, periodOutstanding: { amount: 1500, currency: 'TND' } }),
          subscribed(),
          monthly,
          KEY,
        ),
      );
      expect(grace.status).toBe('IN_GRACE');
    });

    it('grace without access by the grace policy: no access at once', () => {
      const key = { ...KEY, productUid: 'prod_trial' };
      const trial = must(
        decide(paymentEvent('payment.succeeded', 0, 'off_trial', sub), undefined, withTrial, key),
      );
      const grace = must(
        decide(
          event('entitlement.updated', 100, { ...sub, subscriptionStatus: 'IN_GRACE' }),
          trial,
          withTrial,
          key,
        ),
      );
      expect(grace.status).toBe('IN_GRACE');
      expect(grace.graceEndsAt).toBeNull();
      expect(hasAccess(grace, inMinutes(101))).toBe(false);
    });

    it('a renewal collected during grace restores access', () => {
      const grace = must(
        decide(
          event('entitlement.updated', 100, { ...sub, subscriptionStatus: 'IN_GRACE' }),
          subscribed(),
          monthly,
          KEY,
        ),
      );
      const renewed = must(
        decide(
          event('entitlement.updated', 200, { ...sub, subscriptionStatus: 'ACTIVE' }),
          grace,
          monthly,
          KEY,
        ),
      );
      expect(renewed).toMatchObject({ status: 'ACTIVE', graceEndsAt: null });
      expect(hasAccess(renewed, inMinutes(10 * 1440))).toBe(true);
    });
  });

  it('entitlement.revoked: revokes', () => {
    const revoked = must(decide(event('entitlement.revoked', 10, sub), subscribed(), monthly, KEY));
    expect(revoked.status).toBe('REVOKED');
    expect(hasAccess(revoked, inMinutes(11))).toBe(false);
  });

  it('subscription.trial_started: a trialing grant', () => {
    const trial = must(
      decide(
        event('subscription.trial_started', 0, { ...sub, trialEndsAt: at(7 * 1440) }),
        undefined,
        withTrial,
        KEY,
      ),
    );
    expect(trial).toMatchObject({ status: 'TRIALING', trialEndsAt: at(7 * 1440) });
    expect(hasAccess(trial, inMinutes(1))).toBe(true);
  });

  it('subscription.trial_will_end: no access change', () => {
    const current = subscribed();
    expect(decide(event('subscription.trial_will_end', 5, sub), current, monthly, KEY)).toBe(current);
    expect(decide(event('subscription.trial_will_end', 5, sub), undefined, monthly, KEY)).toBeUndefined();
  });

  describe('subscription.updated', () => {
    it('a scheduled cancellation: PRE_CANCELED, access until cancelAt, none after', () => {
      const cancelAt = at(30 * 1440);
      const pre = must(
        decide(event('subscription.updated', 10, { ...sub, cancelAt }), subscribed(), monthly, KEY),
      );
      expect(pre).toMatchObject({ status: 'PRE_CANCELED', cancelAt });
      expect(hasAccess(pre, inMinutes(30 * 1440 - 1))).toBe(true);
      expect(hasAccess(pre, inMinutes(30 * 1440))).toBe(false);
    });

    it('a scheduled cancellation without cancelAt ends with the current period', () => {
      const pre = must(
        decide(
          event('subscription.updated', 10, { ...sub, subscriptionStatus: 'PRE_CANCELED' }),
          subscribed(),
          monthly,
          KEY,
        ),
      );
      // cancelAt comes from the event alone (order-independent); hasAccess falls back to the period end.
      expect(pre).toMatchObject({ status: 'PRE_CANCELED', cancelAt: null, currentPeriodEnd: at(30 * 1440) });
      expect(hasAccess(pre, inMinutes(30 * 1440 - 1))).toBe(true);
      expect(hasAccess(pre, inMinutes(30 * 1440))).toBe(false);
    });

    it('a scheduled cancellation without cancelAt ends with the period a late renewal reported', () => {
      const pre = must(
        decide(
          event('subscription.updated', 10, { ...sub, subscriptionStatus: 'PRE_CANCELED' }),
          subscribed(),
          monthly,
          KEY,
        ),
      );
      const renewal = event('entitlement.updated', 5, { ...sub, currentPeriodEnd: at(60 * 1440) });
      const lateRenewal = must(decide(renewal, pre, monthly, KEY));
      const inOrder = must(
        decide(
          event('subscription.updated', 10, { ...sub, subscriptionStatus: 'PRE_CANCELED' }),
          must(decide(renewal, subscribed(), monthly, KEY)),
          monthly,
          KEY,
        ),
      );
      expect(lateRenewal).toEqual(inOrder);
      expect(hasAccess(lateRenewal, inMinutes(45 * 1440))).toBe(true);
    });

    it('a withdrawn cancellation: ACTIVE again, cancelAt cleared', () => {
      const pre = must(
        decide(
          event('subscription.updated', 10, { ...sub, cancelAt: at(30 * 1440) }),
          subscribed(),
          monthly,
          KEY,
        ),
      );
      const resumed = must(
        decide(event('subscription.updated', 20, { ...sub, cancelAt: null }), pre, monthly, KEY),
      );
      expect(resumed).toMatchObject({ status: 'ACTIVE', cancelAt: null });
      expect(hasAccess(resumed, inMinutes(40 * 1440))).toBe(true);
    });

    describe('a withdrawn cancellation in a free trial: the trial again, its end and first charge kept', () => {
      const trialKey = { ...KEY, productUid: 'prod_trial' };
      const trialEndsAt = at(7 * 1440);
      const trialing = () =>
        must(decide(paymentEvent('payment.succeeded', 0, 'off_trial', sub), undefined, withTrial, trialKey));
      const preCanceled = () =>
        must(
          decide(
            event('subscription.updated', 10, {
              ...sub,
              subscriptionStatus: 'PRE_CANCELED',
              cancelAt: trialEndsAt,
              trialEndsAt,
            }),
            trialing(),
            withTrial,
            trialKey,
          ),
        );
      const withdrawn = (minute: number, fields: Partial<WebhookEvent>) =>
        must(
          decide(
            event('subscription.updated', minute, { ...sub, ...fields }),
            preCanceled(),
            withTrial,
            trialKey,
          ),
        );

      it.each<[string, Partial<WebhookEvent>]>([
        ['said TRIALING', { subscriptionStatus: 'TRIALING', cancelAt: null, trialEndsAt }],
        // The spec's resume row says ACTIVE; the trial end still ahead says nothing was charged.
        [
          'said ACTIVE with the trial end still ahead',
          { subscriptionStatus: 'ACTIVE', cancelAt: null, trialEndsAt },
        ],
        ['with no status, the trial end still ahead', { cancelAt: null, trialEndsAt }],
      ])('%s: TRIALING until trialEndsAt', (_, fields) => {
        expect(withdrawn(20, fields)).toMatchObject({ status: 'TRIALING', cancelAt: null, trialEndsAt });
      });

      it('said ACTIVE once the trial end has passed: ACTIVE (the first charge was made)', () => {
        expect(
          withdrawn(8 * 1440, { subscriptionStatus: 'ACTIVE', cancelAt: null, trialEndsAt }),
        ).toMatchObject({
          status: 'ACTIVE',
          cancelAt: null,
        });
        expect(withdrawn(20, { subscriptionStatus: 'ACTIVE', cancelAt: null })).toMatchObject({
          status: 'ACTIVE',
        });
      });
    });
  });

  it.each(['subscription.suspended', 'subscription.canceled', 'subscription.expired', 'subscription.failed'])(
    '%s: revokes',
    (name) => {
      const revoked = must(decide(event(name, 10, sub), subscribed(), monthly, KEY));
      expect(revoked).toMatchObject({ status: 'REVOKED', lastEventName: name });
      expect(hasAccess(revoked, inMinutes(11))).toBe(false);
    },
  );

  it('an event name dcbkit does not know changes nothing', () => {
    const current = subscribed();
    expect(decide(event('subscription.paused', 10, sub), current, monthly, KEY)).toBe(current);
  });
});

describe('decide: order', () => {
  it('an event older than the last applied one changes nothing', () => {
    const revoked = must(decide(event('entitlement.revoked', 20, sub), subscribed(), monthly, KEY));
    for (const late of [
      event('entitlement.granted', 10, sub),
      event('subscription.updated', 10, { ...sub, cancelAt: at(30 * 1440) }),
      event('entitlement.updated', 10, { ...sub, subscriptionStatus: 'IN_GRACE' }),
      paymentEvent('payment.succeeded', 10, 'off_monthly', sub),
    ]) {
      expect(decide(late, revoked, monthly, KEY)).toEqual(revoked);
    }
  });

  it('an older event still adds its facts: a late renewal moves the period end, not the status', () => {
    const revoked = must(decide(event('entitlement.revoked', 20, sub), subscribed(), monthly, KEY));
    const late = must(
      decide(
        event('entitlement.updated', 10, { ...sub, currentPeriodEnd: at(60 * 1440) }),
        revoked,
        monthly,
        KEY,
      ),
    );
    expect(late).toMatchObject({ status: 'REVOKED', currentPeriodEnd: at(60 * 1440), lastEventAt: at(20) });
  });

  it('two events at the same instant end the same whichever arrives first: the later step wins', () => {
    const grant = event('entitlement.granted', 10, sub);
    const revoke = event('entitlement.revoked', 10, sub);
    const grantFirst = decide(revoke, decide(grant, subscribed(), monthly, KEY), monthly, KEY);
    const revokeFirst = decide(grant, decide(revoke, subscribed(), monthly, KEY), monthly, KEY);
    expect(grantFirst).toEqual(revokeFirst);
    expect(grantFirst?.status).toBe('REVOKED');
  });

  it('a repeated event changes nothing', () => {
    const pre = decide(
      event('subscription.updated', 10, { ...sub, cancelAt: at(99) }),
      subscribed(),
      monthly,
      KEY,
    );
    expect(
      decide(event('subscription.updated', 10, { ...sub, cancelAt: at(99) }), pre, monthly, KEY),
    ).toEqual(pre);
  });

  it('a new subscription to the same product takes over from the ended one', () => {
    const revoked = must(decide(event('subscription.expired', 10, sub), subscribed(), monthly, KEY));
    const again = must(
      decide(
        paymentEvent('payment.succeeded', 20, 'off_monthly', {
          paymentUid: 'pay_2',
          subscriptionUid: 'sub_2',
        }),
        revoked,
        monthly,
        KEY,
      ),
    );
    expect(again).toMatchObject({
      status: 'ACTIVE',
      subscriptionUid: 'sub_2',
    });
  });
});

describe('factsOf: the ids an event leaves for the store to keep', () => {
  it('a consumable purchase brings its payment and the order its unit is counted by', () => {
    const purchase = paymentEvent('payment.succeeded', 0, 'off_credits', {
      paymentUid: 'pay_7',
      orderId: 'ord_7',
    });
    expect(factsOf(purchase, credits)).toEqual({ paymentUid: 'pay_7', unitOrderId: 'ord_7' });
    const { orderId: _, ...withoutOrder } = purchase;
    expect(factsOf(withoutOrder, credits)).toEqual({ paymentUid: 'pay_7', unitOrderId: 'pay_7' });
  });

  it('other events bring their payment only', () => {
    expect(
      factsOf(paymentEvent('payment.succeeded', 0, 'off_monthly', { paymentUid: 'pay_1' }), monthly),
    ).toEqual({
      paymentUid: 'pay_1',
    });
    expect(
      factsOf(paymentEvent('payment.failed', 0, 'off_credits', { paymentUid: 'pay_2' }), credits),
    ).toEqual({
      paymentUid: 'pay_2',
    });
    expect(factsOf(event('entitlement.revoked', 0, sub), monthly)).toEqual({ paymentUid: undefined });
  });

  it('a consumable record stays the same size however many units were bought', () => {
    const key = { ...KEY, productUid: 'prod_credits' };
    const purchases = (count: number) =>
      Array.from({ length: count }, (_, i) =>
        paymentEvent('payment.succeeded', i, 'off_credits', { paymentUid: `pay_${i}`, orderId: `ord_${i}` }),
      );
    const one = decideAll(purchases(1), credits, key);
    const many = decideAll(purchases(5_000), credits, key);
    expect(many?.unitsBought).toBe(5_000);
    expect(JSON.stringify(many).length - JSON.stringify(one).length).toBeLessThanOrEqual(
      String(5_000).length + String(4_999).length,
    );
  });
});
