import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningShop, startShop } from './app.js';
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
