import { describe, expect, it } from 'vitest';
import { checkoutEndEntry, checkoutOutcomeOf, checkoutStartedEntry } from './checkout-facts.js';

const checkout = {
  paymentUid: 'pay_1',
  offerUid: 'off_monthly',
  productUid: 'prod_premium',
  recordedAt: '2030-06-01T23:59:00.000Z',
};

describe('checkoutOutcomeOf', () => {
  it('tells a refused line from a failed charge by the code, whatever the status', () => {
    expect(checkoutOutcomeOf('SUCCEEDED', undefined)).toEqual({ kind: 'checkout_succeeded' });
    expect(checkoutOutcomeOf('CANCELED', undefined)).toEqual({ kind: 'checkout_canceled' });
    for (const code of ['RSK-101', 'SBR-102', 'SBR-104', 'SUB-108', 'CAT-109']) {
      expect(checkoutOutcomeOf('FAILED', code)).toEqual({ kind: 'checkout_refused', detail: code });
      // A subscriber who gave up after the checkout refused the line: refused, not merely expired.
      expect(checkoutOutcomeOf('EXPIRED', code)).toEqual({ kind: 'checkout_refused', detail: code });
    }
    expect(checkoutOutcomeOf('FAILED', 'PAY-101')).toEqual({ kind: 'checkout_failed', detail: 'PAY-101' });
    expect(checkoutOutcomeOf('FAILED', 'PAY-103')).toEqual({ kind: 'checkout_failed', detail: 'PAY-103' });
    expect(checkoutOutcomeOf('FAILED', undefined)).toEqual({ kind: 'checkout_failed', detail: 'none' });
    expect(checkoutOutcomeOf('EXPIRED', undefined)).toEqual({ kind: 'checkout_expired' });
  });

  it('says nothing of a payment still open', () => {
    for (const status of ['REQUIRES_ACTION', 'REQUIRES_START', 'REQUIRES_CODE', 'PROCESSING'] as const) {
      expect(checkoutOutcomeOf(status, undefined)).toBeUndefined();
    }
  });
});

describe('the checkout facts', () => {
  it('are keyed by the payment and dated when it started, the ending too', () => {
    expect(checkoutStartedEntry(checkout, 'TND')).toEqual({
      key: 'checkout:pay_1',
      kind: 'checkout_started',
      offerUid: 'off_monthly',
      productUid: 'prod_premium',
      occurredAt: checkout.recordedAt,
      count: 1,
      amount: 0,
      currency: 'TND',
      live: 0,
    });
    expect(checkoutEndEntry(checkout, { status: 'FAILED', failureCode: 'PAY-101' }, 'TND')).toMatchObject({
      key: 'checkout_end:pay_1',
      kind: 'checkout_failed',
      detail: 'PAY-101',
      occurredAt: checkout.recordedAt,
      count: 1,
      amount: 0,
    });
    expect(checkoutEndEntry(checkout, { status: 'SUCCEEDED' }, 'TND')).not.toHaveProperty('detail');
    expect(checkoutEndEntry(checkout, { status: 'PROCESSING' }, 'TND')).toBeUndefined();
  });
});
