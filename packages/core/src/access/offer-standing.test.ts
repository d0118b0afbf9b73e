import { describe, expect, it } from 'vitest';
import { defineOffers } from '../offers/define-offers.js';
import type { EntitlementStatus } from '../schemas/entitlement.js';
import { exampleEntitlement } from '../store/conformance/example-entitlement.js';
import { offerStanding, offerStandings } from './offer-standing.js';

const offers = defineOffers([
  {
    offerUid: 'off_trial',
    productUid: 'prod_premium',
    name: 'Premium',
    type: 'SUBSCRIPTION',
    price: { amount: 4500, currency: 'TND' },
    billingPeriod: { unit: 'MONTH', count: 1 },
    trialDays: 7,
    onceTrialUsed: 'off_paid',
  },
  {
    offerUid: 'off_paid',
    productUid: 'prod_premium',
    name: 'Premium',
    type: 'SUBSCRIPTION',
    price: { amount: 4500, currency: 'TND' },
    billingPeriod: { unit: 'MONTH', count: 1 },
  },
  {
    offerUid: 'off_no_replacement',
    productUid: 'prod_other',
    name: 'Other',
    type: 'SUBSCRIPTION',
    price: { amount: 1000, currency: 'TND' },
    billingPeriod: { unit: 'WEEK', count: 1 },
    trialDays: 3,
  },
  {
    offerUid: 'off_unlock',
    productUid: 'prod_unlock',
    name: 'Unlock',
    type: 'NON_CONSUMABLE',
    price: { amount: 1, currency: 'TND' },
  },
  {
    offerUid: 'off_pass',
    productUid: 'prod_pass',
    name: 'Pass',
    type: 'CONSUMABLE',
    price: { amount: 1, currency: 'TND' },
  },
]);
const NOW = new Date('2030-01-10T00:00:00.000Z');
const offer = (uid: string) => offers.get(uid) ?? expect.unreachable(uid);
const standing = (uid: string, entitlement?: ReturnType<typeof exampleEntitlement>, openCheckouts = []) =>
  offerStanding({ offer: offer(uid), entitlement, openCheckouts, offerOf: offers.get, now: NOW });
const subscription = (status: EntitlementStatus, productUid = 'prod_premium') =>
  exampleEntitlement({ productUid, type: 'SUBSCRIPTION', status, subscriptionUid: 'sub_1' });

describe('offerStanding', () => {
  it('offers the trial to a new subscriber, and the paid offer to one who had it', () => {
    expect(standing('off_trial')).toEqual({
      kind: 'subscribe',
      offer: offer('off_trial'),
      trial: true,
      reason: 'trial_available',
    });
    expect(standing('off_trial', subscription('REVOKED'))).toEqual({
      kind: 'subscribe',
      offer: offer('off_paid'),
      trial: false,
      reason: 'trial_used',
    });
    expect(standing('off_no_replacement', subscription('REVOKED', 'prod_other'))).toEqual({
      kind: 'unavailable',
      reason: 'trial_used',
    });
    expect(standing('off_paid', subscription('REVOKED'))).toMatchObject({
      kind: 'subscribe',
      reason: 'no_trial',
    });
  });

  it.each(['TRIALING', 'ACTIVE', 'IN_GRACE', 'PRE_CANCELED'] as const)(
    'says subscribed, with its actions, while the subscription is %s, for every offer of the product',
    (status) => {
      for (const uid of ['off_trial', 'off_paid']) {
        expect(standing(uid, subscription(status))).toMatchObject({
          kind: 'subscribed',
          actions: { resume: status === 'PRE_CANCELED', cancelNow: true },
        });
      }
    },
  );

  it('says owned for an unlock with access, and buy again once it is revoked', () => {
    const unlock = exampleEntitlement({
      productUid: 'prod_unlock',
      type: 'NON_CONSUMABLE',
      status: 'ACTIVE',
    });
    expect(standing('off_unlock', unlock)).toMatchObject({ kind: 'owned' });
    expect(standing('off_unlock', { ...unlock, status: 'REVOKED' })).toMatchObject({ kind: 'buy' });
    expect(
      standing('off_pass', exampleEntitlement({ productUid: 'prod_pass', type: 'CONSUMABLE' })),
    ).toMatchObject({
      kind: 'buy',
    });
  });

  it('continues an open checkout of the product until it expires, but never over what the account has', () => {
    const open = {
      paymentUid: 'pay_1',
      offerUid: 'off_trial',
      productUid: 'prod_premium',
      checkoutUrl: 'https://checkout.example/c/pay_1',
      expiresAt: '2030-01-10T00:15:00.000Z',
    };
    const other = { ...open, paymentUid: 'pay_2', productUid: 'prod_pass', offerUid: 'off_pass' };
    expect(
      offerStanding({
        offer: offer('off_trial'),
        entitlement: undefined,
        openCheckouts: [other, open],
        offerOf: offers.get,
        now: NOW,
      }),
    ).toEqual({ kind: 'pending', checkout: open });
    const later = new Date('2030-01-10T00:16:00.000Z');
    expect(
      offerStanding({
        offer: offer('off_trial'),
        entitlement: undefined,
        openCheckouts: [open],
        offerOf: offers.get,
        now: later,
      }),
    ).toMatchObject({ kind: 'subscribe' });
    expect(
      offerStanding({
        offer: offer('off_trial'),
        entitlement: subscription('ACTIVE'),
        openCheckouts: [open],
        offerOf: offers.get,
        now: NOW,
      }),
    ).toMatchObject({ kind: 'subscribed' });
  });

  it('answers for every listed offer at once, by offerUid', () => {
    const standings = offerStandings({
      offers: offers.listed,
      entitlements: [subscription('ACTIVE')],
      offerOf: offers.get,
      now: NOW,
    });
    expect([...standings.keys()]).toEqual(['off_trial', 'off_no_replacement', 'off_unlock', 'off_pass']);
    expect(standings.get('off_trial')?.kind).toBe('subscribed');
    expect(standings.get('off_unlock')?.kind).toBe('buy');
  });
});
