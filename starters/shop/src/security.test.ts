import { Writable } from 'node:stream';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopApp } from '#framework';
import { type Billing, startBilling } from './billing.js';
import { readShopConfig } from './config.js';
import { createLogger } from './logger.js';
import { postForm, setCookies, tokenOn } from './test-support/browser-session.js';
import { type ShopUnderTest, shopUnderTest } from './test-support/shop-under-test.js';

// What a security reviewer checks, over HTTP (supertest) against the shop on its embedded sandbox.
describe('the shop’s security', () => {
  let shop: ShopUnderTest;
  let checkoutOrigin: string;

  beforeAll(async () => {
    shop = await shopUnderTest();
    checkoutOrigin = new URL(shop.billing.sandbox?.checkoutBaseUrl ?? '').origin;
  });
  afterAll(() => shop?.close());

  /** A browser signed in as demo-amira: the agent keeps the session cookie. */
  async function signedIn() {
    const browser = request.agent(shop.app);
    await postForm(browser, '/sign-in', { accountId: 'demo-amira' }).expect(303);
    return browser;
  }

  it('allows frames and form redirects to the checkout host only, and only its own scripts', async () => {
    const response = await request(shop.app).get('/');
    const csp = response.headers['content-security-policy'] ?? '';
    expect(csp).toContain(`frame-src ${checkoutOrigin}`);
    expect(csp).toContain(`form-action 'self' ${checkoutOrigin}`);
    expect(csp).toContain("script-src 'self'");
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('signs a session cookie that is httpOnly and SameSite=Lax', async () => {
    const response = await postForm(request.agent(shop.app), '/sign-in', { accountId: 'demo-amira' });
    const cookies = setCookies(response);
    expect(cookies.some((line) => line.startsWith('shop_session.sig='))).toBe(true);
    for (const line of cookies)
      expect(line.toLowerCase()).toMatch(/httponly.*samesite=lax|samesite=lax.*httponly/);
  });

  it('refuses a sign-in posted by another site', async () => {
    const response = await postForm(
      request.agent(shop.app),
      '/sign-in',
      { accountId: 'demo-amira' },
      {
        origin: 'https://evil.example',
      },
    );
    expect(response.status).toBe(403);
  });

  it('refuses a checkout form without its token, and one posted by another site', async () => {
    const browser = await signedIn();
    const withoutToken = await postForm(browser, '/checkout', { offerUid: 'offer_day_pass' });
    expect(withoutToken.status).toBe(403);
    const token = await tokenOn(browser, '/');
    const crossSite = await postForm(
      browser,
      '/checkout',
      { offerUid: 'offer_day_pass', token },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
    const sameSite = await postForm(browser, '/checkout', { offerUid: 'offer_day_pass', token });
    expect(sameSite.status).toBe(303);
    expect(sameSite.headers.location).toMatch(new RegExp(`^${checkoutOrigin}/c/pay_`));
  });

  it('never reads a cancellation from the query string', async () => {
    const browser = await signedIn();
    const response = await browser.post('/account/subscriptions/sub_x/cancel?when=NOW');
    expect(response.status).toBeGreaterThanOrEqual(400);
  });

  it('shows another account’s subscription as not found', async () => {
    const browser = await signedIn();
    const response = await browser.get('/account/subscriptions/sub_of_someone_else/cancel');
    expect(response.status).toBe(404);
  });

  it('serves the files of public/ it lists, and nothing else under /static', async () => {
    const style = await request(shop.app).get('/static/style.css');
    expect(style.status).toBe(200);
    expect(style.headers['content-type']).toContain('text/css');
    for (const path of [
      '/static/../src/config.ts',
      '/static/%2e%2e/package.json',
      '/static/.gitignore',
      '/static/',
    ]) {
      expect((await request(shop.app).get(path)).status, path).toBe(404);
    }
  });

  it('signs out, keeping the chosen language', async () => {
    const browser = await signedIn();
    const response = await postForm(browser, '/sign-out', {});
    expect(response.status).toBe(303);
    const page = await browser.get('/account');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/sign-in?next=%2Faccount');
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
  let app: ReturnType<typeof createShopApp>;

  beforeAll(async () => {
    const logger = createLogger('silent');
    billing = await startBilling({ config: readShopConfig({}), shopUrl: 'http://127.0.0.1:9', logger });
    app = createShopApp({
      billing,
      publicUrl: 'https://shop.example/return',
      sessionSecret: 'a-session-secret-of-at-least-32-characters',
      trustProxy: 1,
      logger,
    });
  });
  afterAll(() => billing?.close());

  /** The sign-in form, posted through the proxy from the shop's public origin (or `origin`). */
  const signIn = (origin = 'https://shop.example') =>
    postForm(
      request.agent(app),
      '/sign-in',
      { accountId: 'demo-amira' },
      { origin, 'x-forwarded-proto': 'https' },
    );

  it('sends the session cookie Secure, and HSTS', async () => {
    const response = await signIn();
    expect(response.status).toBe(303);
    const cookies = setCookies(response);
    expect(cookies.length).toBeGreaterThan(0);
    for (const line of cookies) expect(line.toLowerCase()).toContain('; secure');
    expect(response.headers['strict-transport-security']).toContain('max-age=');
  });

  it('answers an error inside a route with a generic page: no stack, no message from the inside', async () => {
    // The cookie is Secure: sent back by hand, as the proxy would over https.
    const cookie = setCookies(await signIn())
      .map((line) => line.split(';')[0])
      .join('; ');
    const { store } = billing.kit;
    const listByAccount = store.listByAccount;
    store.listByAccount = async () => {
      throw new Error('inside detail');
    };
    try {
      const response = await request(app).get('/account').set({ cookie, 'x-forwarded-proto': 'https' });
      expect(response.status).toBe(500);
      const page = response.text;
      expect(page).toContain('<h1');
      expect(page).not.toContain('inside detail');
    } finally {
      store.listByAccount = listByAccount;
    }
  });

  it('refuses a form posted from the shop’s local address, which is not its public origin', async () => {
    const response = await signIn('http://127.0.0.1:3000');
    expect(response.status).toBe(403);
  });
});
