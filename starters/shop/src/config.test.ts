import { describe, expect, it } from 'vitest';
import { readShopConfig, ShopConfigError } from './config.js';

const SERVICE_ENV = {
  DCB_ENV: 'sandbox',
  DCB_API_BASE_URL: 'https://api.sandbox.example',
  DCB_CLIENT_ID: 'svc_test_shop',
  DCB_CLIENT_SECRET: 'client-secret',
  DCB_WEBHOOK_SECRET: 'whsec_shop',
  DCB_CHECKOUT_BASE_URL: 'https://checkout.sandbox.example',
  SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
};

describe('readShopConfig', () => {
  it('runs the embedded sandbox when no DCB_* variable is set, on port 3000 of this machine', () => {
    expect(readShopConfig({})).toMatchObject({ mode: 'embedded-sandbox', port: 3000, host: '127.0.0.1' });
    expect(readShopConfig({ PORT: '0' }).port).toBe(0);
  });

  it('refuses the embedded sandbox in production (NODE_ENV=production or HOST beyond loopback), listing the DCB_* variables', () => {
    for (const env of [
      { NODE_ENV: 'production' },
      { HOST: '0.0.0.0' },
      { HOST: '::' },
      { HOST: '10.0.0.5' },
    ]) {
      let error: unknown;
      try {
        readShopConfig(env);
      } catch (caught) {
        error = caught;
      }
      expect(error, JSON.stringify(env)).toBeInstanceOf(ShopConfigError);
      const { message } = error as ShopConfigError;
      for (const name of [
        'DCB_ENV',
        'DCB_API_BASE_URL',
        'DCB_CLIENT_ID',
        'DCB_CLIENT_SECRET',
        'DCB_WEBHOOK_SECRET',
      ]) {
        expect(message).toContain(`${name}: `);
      }
      expect(message).toContain('ALLOW_EMBEDDED_SANDBOX=true');
    }
    // Loopback is a developer's machine, whatever its spelling.
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]']) {
      expect(readShopConfig({ HOST: host })).toMatchObject({ mode: 'embedded-sandbox', productionSigns: [] });
    }
    expect(readShopConfig({ NODE_ENV: 'development' })).toMatchObject({ productionSigns: [] });
  });

  it('runs the embedded sandbox in production only with ALLOW_EMBEDDED_SANDBOX=true, and keeps why', () => {
    expect(
      readShopConfig({ NODE_ENV: 'production', HOST: '0.0.0.0', ALLOW_EMBEDDED_SANDBOX: 'true' }),
    ).toMatchObject({
      mode: 'embedded-sandbox',
      productionSigns: ['NODE_ENV=production', 'HOST=0.0.0.0 listens beyond this machine'],
    });
    expect(() => readShopConfig({ NODE_ENV: 'production', ALLOW_EMBEDDED_SANDBOX: 'false' })).toThrow(
      ShopConfigError,
    );
    expect(() => readShopConfig({ NODE_ENV: 'production', ALLOW_EMBEDDED_SANDBOX: 'yes' })).toThrow(
      /ALLOW_EMBEDDED_SANDBOX must be true or false; it is "yes"/,
    );
    // With DCB_* variables the opt-in changes nothing: the service is used.
    expect(readShopConfig({ ...SERVICE_ENV, NODE_ENV: 'production', HOST: '0.0.0.0' }).mode).toBe('service');
  });

  it('talks to the service when the DCB_* variables are set', () => {
    const config = readShopConfig(SERVICE_ENV);
    expect(config).toMatchObject({ mode: 'service', dataDir: '.data/sandbox', databaseUrl: undefined });
    if (config.mode !== 'service') throw new Error('expected the service mode');
    expect(config.dcb.checkoutBaseUrl).toBe('https://checkout.sandbox.example');
  });

  it('keeps each environment in a data folder of its own, unless DATA_DIR names one', () => {
    const production = {
      ...SERVICE_ENV,
      DCB_ENV: 'production',
      DCB_API_BASE_URL: 'https://api.example',
      DCB_CHECKOUT_BASE_URL: 'https://checkout.example',
      DCB_CLIENT_ID: 'svc_live_shop',
    };
    expect(readShopConfig(production)).toMatchObject({ mode: 'service', dataDir: '.data/production' });
    expect(readShopConfig({ ...production, DATA_DIR: '/var/lib/shop' })).toMatchObject({
      dataDir: '/var/lib/shop',
    });
  });

  it('refuses an incomplete or inconsistent configuration with one message naming every problem', () => {
    let error: unknown;
    try {
      readShopConfig({ DCB_ENV: 'production', DCB_CLIENT_ID: 'svc_test_shop', PORT: 'eighty' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ShopConfigError);
    const { message } = error as ShopConfigError;
    for (const expected of [
      'DCB_API_BASE_URL is not set',
      'DCB_CLIENT_SECRET is not set',
      'DCB_WEBHOOK_SECRET is not set',
      'DCB_CLIENT_ID must start with svc_live_',
      'SESSION_SECRET is not set',
      'PORT must be a port number',
      // Issue 38: production sends buyers to its own checkout host only, never "any https host".
      'DCB_CHECKOUT_BASE_URL is not set',
    ]) {
      expect(message).toContain(expected);
    }
    expect(message).not.toContain('client-secret');
  });

  it('reconciles every 15 minutes unless RECONCILE_EVERY_MINUTES says otherwise; 0 turns it off', () => {
    expect(readShopConfig({}).reconcileEveryMinutes).toBe(15);
    expect(readShopConfig({ RECONCILE_EVERY_MINUTES: '0' }).reconcileEveryMinutes).toBe(0);
    expect(readShopConfig({ ...SERVICE_ENV, RECONCILE_EVERY_MINUTES: '60' }).reconcileEveryMinutes).toBe(60);
    for (const value of ['soon', '-1', '1.5', '100000']) {
      expect(() => readShopConfig({ RECONCILE_EVERY_MINUTES: value })).toThrow(
        /RECONCILE_EVERY_MINUTES must be a whole number of minutes from 0 \(off\) to 1440/,
      );
    }
  });

  it('takes OPERATOR_PASSWORD for the operations view, and refuses a short one', () => {
    expect(readShopConfig({}).operatorPassword).toBeUndefined();
    const password = 'an-operator-password-for-tests';
    expect(readShopConfig({ ...SERVICE_ENV, OPERATOR_PASSWORD: password }).operatorPassword).toBe(password);
    expect(() => readShopConfig({ OPERATOR_PASSWORD: 'short' })).toThrow(
      /OPERATOR_PASSWORD must be at least 16 characters/,
    );
  });

  it("names LOG_LEVEL when it is not one of pino's levels, rather than letting the logger throw", () => {
    expect(readShopConfig({ LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
    expect(() => readShopConfig({ LOG_LEVEL: 'verbose' })).toThrow(
      /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; it is "verbose"/,
    );
  });

  it("refuses a DATABASE_URL that is not PostgreSQL's, saying what to set", () => {
    expect(readShopConfig({ ...SERVICE_ENV, DATABASE_URL: 'postgres://shop@db:5432/shop' })).toMatchObject({
      databaseUrl: 'postgres://shop@db:5432/shop',
    });
    expect(() => readShopConfig({ ...SERVICE_ENV, DATABASE_URL: 'mysql://shop@db/shop' })).toThrow(
      /DATABASE_URL must be a PostgreSQL URL \(postgres:\/\/user:password@host:5432\/database\)/,
    );
  });

  it('says how to make a SESSION_SECRET when it is missing', () => {
    const { SESSION_SECRET: _, ...withoutSecret } = SERVICE_ENV;
    expect(() => readShopConfig(withoutSecret)).toThrow(
      /SESSION_SECRET is not set: .*openssl rand -base64 32/,
    );
  });

  it('refuses a short session secret', () => {
    expect(() => readShopConfig({ ...SERVICE_ENV, SESSION_SECRET: 'short' })).toThrow(
      /at least 32 characters/,
    );
  });
});
