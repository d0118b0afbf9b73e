import { describe, expect, it } from 'vitest';
import { checkCreatePaymentRequest, FORBIDDEN_CREATE_PAYMENT_PROPERTIES } from './create-payment.js';

const valid = { mode: 'HOSTED', offerUid: 'premium_monthly', returnUrl: 'https://partner.example/return' };

const codesOf = (input: unknown) => {
  const result = checkCreatePaymentRequest(input);
  return result.ok ? [] : result.issues.map((issue) => `${issue.code} ${issue.path}`);
};

describe('checkCreatePaymentRequest', () => {
  it('accepts the smallest valid request and every optional field', () => {
    expect(checkCreatePaymentRequest(valid)).toEqual({ ok: true, value: valid });
    const full = {
      ...valid,
      presentation: 'embedded',
      prefill: { msisdn: '+21620123456', msisdnEditable: false },
      operator: 'tt',
      metadata: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])),
    };
    expect(checkCreatePaymentRequest(full)).toEqual({ ok: true, value: full });
  });

  it.each(Object.keys(FORBIDDEN_CREATE_PAYMENT_PROPERTIES))('names %s as forbidden (VAL-006)', (key) => {
    const result = checkCreatePaymentRequest({ ...valid, [key]: 'x' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issues).toEqual([expect.objectContaining({ code: 'VAL-006', path: key })]);
      expect(result.issues[0]?.message).toMatch(/not allowed/);
    }
  });

  it('refuses any other unknown property, at the top and inside prefill (VAL-006)', () => {
    expect(codesOf({ ...valid, partnerId: 'p1' })).toEqual(['VAL-006 partnerId']);
    expect(codesOf({ ...valid, prefill: { msisdn: '+21620123456', name: 'x' } })).toEqual([
      'VAL-006 prefill.name',
    ]);
  });

  it('reports missing required fields as VAL-001', () => {
    expect(codesOf({})).toEqual(['VAL-001 mode', 'VAL-001 offerUid', 'VAL-001 returnUrl']);
    expect(codesOf({ ...valid, prefill: { msisdnEditable: false } })).toEqual(['VAL-001 prefill.msisdn']);
  });

  it.each([
    ['mode API', { mode: 'API' }, 'mode'],
    ['returnUrl not a URL', { returnUrl: 'not a url' }, 'returnUrl'],
    ['returnUrl with a javascript: scheme', { returnUrl: 'javascript:alert(1)' }, 'returnUrl'],
    ['returnUrl with a data: scheme', { returnUrl: 'data:text/html,<p>hi</p>' }, 'returnUrl'],
    ['returnUrl relative', { returnUrl: '/return' }, 'returnUrl'],
    ['presentation unknown', { presentation: 'popup' }, 'presentation'],
    ['msisdn not E.164', { prefill: { msisdn: '20123456' } }, 'prefill.msisdn'],
    [
      'msisdnEditable not a boolean',
      { prefill: { msisdn: '+21620123456', msisdnEditable: 'no' } },
      'prefill.msisdnEditable',
    ],
    [
      'metadata with 21 keys',
      { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])) },
      'metadata',
    ],
    ['metadata not an object', { metadata: 'x' }, 'metadata'],
    ['offerUid empty', { offerUid: '' }, 'offerUid'],
  ])('reports %s as VAL-002', (_label, change, path) => {
    expect(codesOf({ ...valid, ...change })).toEqual([`VAL-002 ${path}`]);
  });

  it('orders issues most specific first and refuses a non-object body', () => {
    expect(codesOf({ amount: 100, mode: 'API', offerUid: 'o', returnUrl: 'https://x.example' })).toEqual([
      'VAL-006 amount',
      'VAL-002 mode',
    ]);
    expect(codesOf([valid])).toEqual(['VAL-002 ']);
    expect(codesOf(null)).toEqual(['VAL-002 ']);
  });
});

describe('metadata bounds', () => {
  const base = { mode: 'HOSTED', offerUid: 'off_1', returnUrl: 'https://partner.example/return' };

  it('refuses metadata nested thousands deep as VAL-002, without overflowing the stack', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 3_000; i++) deep = { inner: deep };
    const check = checkCreatePaymentRequest({ ...base, metadata: deep });
    expect(check).toMatchObject({ ok: false, issues: [{ code: 'VAL-002', path: 'metadata' }] });
  });

  it('refuses metadata larger than 8 KiB as JSON, and accepts five levels', () => {
    const large = checkCreatePaymentRequest({ ...base, metadata: { note: 'x'.repeat(9_000) } });
    expect(large).toMatchObject({ ok: false, issues: [{ code: 'VAL-002', path: 'metadata' }] });
    const fine = checkCreatePaymentRequest({ ...base, metadata: { a: { b: { c: { d: 'e' } } } } });
    expect(fine.ok).toBe(true);
  });

  it("takes an app's deep link as returnUrl: the spec types it uri", () => {
    expect(checkCreatePaymentRequest({ ...valid, returnUrl: 'myapp://billing/done' })).toMatchObject({
      ok: true,
    });
  });
});
