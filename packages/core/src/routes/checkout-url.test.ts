import { describe, expect, it } from 'vitest';
import { isExpectedCheckoutUrl } from './checkout-url.js';

const base = new URL('https://checkout.example/');

describe('isExpectedCheckoutUrl', () => {
  it('accepts the spec’s shape: {checkout host}/c/{paymentUid}, over https', () => {
    expect(isExpectedCheckoutUrl('https://checkout.example/c/pay_1', 'pay_1', base)).toBe(true);
    expect(isExpectedCheckoutUrl('https://checkout.example/c/pay_1', 'pay_1', undefined)).toBe(true);
    expect(
      isExpectedCheckoutUrl('https://pay.example/dcb/c/pay_1', 'pay_1', new URL('https://pay.example/dcb')),
    ).toBe(true);
  });

  it('accepts plain http only on a loopback host (the embedded sandbox)', () => {
    expect(isExpectedCheckoutUrl('http://127.0.0.1:4010/c/pay_1', 'pay_1', undefined)).toBe(true);
    expect(isExpectedCheckoutUrl('http://localhost:4010/c/pay_1', 'pay_1', undefined)).toBe(true);
    expect(isExpectedCheckoutUrl('http://checkout.example/c/pay_1', 'pay_1', undefined)).toBe(false);
  });

  it.each([
    'javascript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'ftp://checkout.example/c/pay_1',
    '//evil.example/c/pay_1',
    '/c/pay_1',
    'https://evil.example/c/pay_1',
    'https://user:pw@checkout.example/c/pay_1',
    'https://checkout.example/c/pay_2',
    'https://checkout.example/c/pay_1/../../evil',
    'https://checkout.example/x/c/pay_1',
    'not a url',
  ])('refuses %s', (url) => {
    expect(isExpectedCheckoutUrl(url, 'pay_1', base)).toBe(false);
  });

  it('refuses another host than the configured one, even with the right path', () => {
    expect(isExpectedCheckoutUrl('https://evil.example/c/pay_1', 'pay_1', base)).toBe(false);
    expect(isExpectedCheckoutUrl(undefined, 'pay_1', base)).toBe(false);
  });
});
