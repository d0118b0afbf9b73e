import { describe, expect, it } from 'vitest';
import { event, paymentEvent } from '../test-support/fixtures.js';
import { eventKey } from './event-key.js';
import { keyDigestInto } from './key-digest.js';

describe('eventKey', () => {
  it('is the same for a redelivery and differs for any identity field', () => {
    const base = paymentEvent('payment.succeeded', 0, 'off_credits', {
      orderId: 'ord_1',
      subscriptionUid: 'sub_1',
    });
    expect(eventKey({ ...base, metadata: { other: true } })).toBe(eventKey(base));
    const variants = [
      { ...base, event: 'payment.failed' },
      { ...base, paymentUid: 'pay_2' },
      { ...base, subscriptionUid: 'sub_2' },
      { ...base, subscriptionUid: undefined },
      { ...base, orderId: 'ord_2' },
      { ...base, subscriptionStatus: 'PRE_CANCELED' as const },
      { ...base, occurredAt: '2026-11-21T12:00:01.000Z' },
    ];
    const keys = new Set([base, ...variants].map(eventKey));
    expect(keys.size).toBe(variants.length + 1);
  });

  it('keeps the fields apart, so that ids cannot run into each other', () => {
    const a = event('entitlement.updated', 0, { paymentUid: 'pay_1', subscriptionUid: 'sub' });
    const b = event('entitlement.updated', 0, { paymentUid: 'pay_1sub', subscriptionUid: '' });
    expect(eventKey(a)).not.toBe(eventKey(b));
    expect(eventKey(a).split('\u001f')).toEqual([
      'entitlement.updated',
      'pay_1',
      'sub',
      '',
      '',
      a.occurredAt,
    ]);
  });

  it('tells a cancellation from its withdrawal at the same instant', () => {
    const scheduled = event('subscription.updated', 0, {
      subscriptionUid: 'sub_1',
      subscriptionStatus: 'PRE_CANCELED',
    });
    const withdrawn = { ...scheduled, subscriptionStatus: 'ACTIVE' as const, cancelAt: null };
    expect(eventKey(scheduled)).not.toBe(eventKey(withdrawn));
  });
});

describe('keyDigestInto', () => {
  const digestOf = (key: string) => {
    const lanes = new Int32Array(4);
    keyDigestInto(key, lanes);
    return lanes.join(',');
  };

  it('is stable and tells 200,000 similar keys apart', () => {
    expect(digestOf('payment.succeeded\u001fpay_1')).toBe(digestOf('payment.succeeded\u001fpay_1'));
    expect(digestOf('payment.succeeded\u001fpay_1')).not.toBe(digestOf('payment.succeeded\u001fpay_2'));
    const digests = new Set<string>();
    for (let i = 0; i < 200_000; i++)
      digests.add(digestOf(`payment.succeeded\u001fpay_${i}\u001f\u001ford_${i}`));
    expect(digests.size).toBe(200_000);
  });
});
