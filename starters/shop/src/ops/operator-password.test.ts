import { describe, expect, it } from 'vitest';
import { readShopConfig } from '../config.js';
import { operatorAccessOf, passwordMatches } from './operator-password.js';

const SERVICE_ENV = {
  DCB_ENV: 'sandbox',
  DCB_API_BASE_URL: 'https://api.sandbox.example',
  DCB_CLIENT_ID: 'svc_test_shop',
  DCB_CLIENT_SECRET: 'client-secret',
  DCB_WEBHOOK_SECRET: 'whsec_shop',
  SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
};

describe('the operator password', () => {
  it('matches only the exact password', () => {
    const password = 'correct horse battery staple';
    expect(passwordMatches(password, password)).toBe(true);
    for (const guess of ['', 'correct horse', `${password} `, password.toUpperCase(), undefined, ['x'], 42]) {
      expect(passwordMatches(guess, password)).toBe(false);
    }
  });

  it('is OPERATOR_PASSWORD when set', () => {
    const password = 'an-operator-password-for-tests';
    expect(operatorAccessOf(readShopConfig({ OPERATOR_PASSWORD: password }))).toEqual({
      password,
      generated: false,
    });
    expect(operatorAccessOf(readShopConfig({ ...SERVICE_ENV, OPERATOR_PASSWORD: password }))?.password).toBe(
      password,
    );
  });

  it('is random per run on the embedded sandbox without it', () => {
    const first = operatorAccessOf(readShopConfig({}));
    const second = operatorAccessOf(readShopConfig({}));
    expect(first?.generated).toBe(true);
    expect(first?.password.length).toBeGreaterThanOrEqual(24);
    expect(first?.password).not.toBe(second?.password);
  });

  it('turns the operations view off on the real service without it', () => {
    expect(operatorAccessOf(readShopConfig(SERVICE_ENV))).toBeUndefined();
    expect(
      operatorAccessOf(
        readShopConfig({
          ...SERVICE_ENV,
          DCB_ENV: 'production',
          DCB_CLIENT_ID: 'svc_live_shop',
          DCB_CHECKOUT_BASE_URL: 'https://checkout.example',
        }),
      ),
    ).toBeUndefined();
  });
});
