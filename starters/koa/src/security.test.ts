import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningShop, startShop } from './app.js';
import { type Billing, startBilling } from './billing.js';
import { readShopConfig } from './config.js';
import { createShopApp } from './framework/create-shop-app.js';
import { createLogger } from './logger.js';

// What a security reviewer checks, over HTTP against the shop on its embedded sandbox.
describe('the shop’s security', () => {
  let shop: RunningShop;
  let checkoutOrigin: string;

  beforeAll(async () => {
    shop = await startShop({ env: {}, port: 0, logLevel: 'silent' });
    checkoutOrigin = new URL(shop.sandbox?.checkoutBaseUrl ?? '').origin;
  });
  afterAll(() => shop?.close());

  const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(new URL(path, shop.url), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });

  async function signedInCookie(): Promise<string> {
    const response = await post('/sign-in', { accountId: 'demo-amira' });
    return response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
  }

  it('allows frames and form redirects to the checkout host only, and only its own scripts', async () => {
    const response = await fetch(shop.url);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`frame-src ${checkoutOrigin}`);
    expect(csp).toContain(`form-action 'self' ${checkoutOrigin}`);
    expect(csp).toContain("script-src 'self'");
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('signs a session cookie that is httpOnly and SameSite=Lax', async () => {
    const response = await post('/sign-in', { accountId: 'demo-amira' });
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((line) => line.startsWith('shop_session.sig='))).toBe(true);
    for (const line of cookies)
      expect(line.toLowerCase()).toMatch(/httponly.*samesite=lax|samesite=lax.*httponly/);
  });

  it('refuses a sign-in posted by another site', async () => {
    const response = await post('/sign-in', { accountId: 'demo-amira' }, { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
  });

  it('refuses a checkout form without its token, and one posted by another site', async () => {
    const cookie = await signedInCookie();
    const withoutToken = await post('/checkout', { offerUid: 'offer_day_pass' }, { cookie });
    expect(withoutToken.status).toBe(403);
    const page = await (await fetch(shop.url, { headers: { cookie } })).text();
    const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const crossSite = await post(
      '/checkout',
      { offerUid: 'offer_day_pass', token },
      { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
    const sameSite = await post('/checkout', { offerUid: 'offer_day_pass', token }, { cookie });
    expect(sameSite.status).toBe(303);
    expect(sameSite.headers.get('location')).toMatch(new RegExp(`^${checkoutOrigin}/c/pay_`));
  });

  it('never reads a cancellation from the query string', async () => {
    const cookie = await signedInCookie();
    const response = await fetch(new URL('/account/subscriptions/sub_x/cancel?when=NOW', shop.url), {
      method: 'POST',
      headers: { cookie },
      redirect: 'manual',
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
  });

  it('shows another account’s subscription as not found', async () => {
    const cookie = await signedInCookie();
    const response = await fetch(new URL('/account/subscriptions/sub_of_someone_else/cancel', shop.url), {
      headers: { cookie },
    });
    expect(response.status).toBe(404);
  });

  it('serves the files of public/ it lists, and nothing else under /static', async () => {
    const style = await fetch(new URL('/static/style.css', shop.url));
    expect(style.status).toBe(200);
    expect(style.headers.get('content-type')).toContain('text/css');
    for (const path of [
      '/static/../src/config.ts',
      '/static/%2e%2e/package.json',
      '/static/.gitignore',
      '/static/',
    ]) {
      expect((await fetch(new URL(path, shop.url))).status).toBe(404);
    }
  });

  it('signs out, keeping the chosen language', async () => {
    const cookie = await signedInCookie();
    const response = await post('/sign-out', {}, { cookie });
    expect(response.status).toBe(303);
    const after = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const page = await await fetch(new URL('/account', shop.url), {
      headers: { cookie: after },
      redirect: 'manual',
    });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/sign-in?next=%2Faccount');
  });

  it('keeps cookies, authorization and signatures out of the log', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    createLogger('info', sink).info(
      {
        req: {
          headers: {
            cookie: 'shop_session=SECRET1',
            authorization: 'Bearer SECRET2',
            'service-signature': 'v1=SECRET3',
          },
        },
        res: { headers: { 'set-cookie': 'shop_session=SECRET4' } },
      },
      'request completed',
    );
    expect(lines.join('')).not.toMatch(/SECRET/);
    expect(lines.join('')).toContain('[redacted]');
  });
});

// In production the shop sits behind a proxy that terminates TLS: the cookie must still be Secure.
describe('behind a TLS-terminating proxy (TRUST_PROXY=1, an https public address)', () => {
  let billing: Billing;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const logger = createLogger('silent');
    billing = await startBilling({ config: readShopConfig({}), shopUrl: 'http://127.0.0.1:9', logger });
    const app = createShopApp({
      billing,
      publicUrl: 'https://shop.example/return',
      sessionSecret: 'a-session-secret-of-at-least-32-characters',
      trustProxy: 1,
      logger,
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    server?.close();
    await billing?.close();
  });

  it('sends the session cookie Secure, and HSTS', async () => {
    const response = await fetch(new URL('/sign-in', url), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://shop.example',
        'x-forwarded-proto': 'https',
      },
      body: 'accountId=demo-amira',
    });
    expect(response.status).toBe(303);
    const cookies = response.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const line of cookies) expect(line.toLowerCase()).toContain('; secure');
    expect(response.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('answers an error inside a route with a generic page: no stack, no message from the inside', async () => {
    const signIn = await fetch(new URL('/sign-in', url), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://shop.example',
        'x-forwarded-proto': 'https',
      },
      body: 'accountId=demo-amira',
    });
    const cookie = signIn.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const { store } = billing.kit;
    const listByAccount = store.listByAccount;
    store.listByAccount = async () => {
      throw new Error('inside detail');
    };
    try {
      const response = await fetch(new URL('/account', url), {
        headers: { cookie, 'x-forwarded-proto': 'https' },
      });
      expect(response.status).toBe(500);
      const page = await response.text();
      expect(page).toContain('<h1');
      expect(page).not.toContain('inside detail');
    } finally {
      store.listByAccount = listByAccount;
    }
  });

  it('refuses a form posted from the shop’s local address, which is not its public origin', async () => {
    const response = await fetch(new URL('/sign-in', url), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: url,
        'x-forwarded-proto': 'https',
      },
      body: 'accountId=demo-amira',
    });
    expect(response.status).toBe(403);
  });
});
