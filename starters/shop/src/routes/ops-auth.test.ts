import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, postForm, setCookies, tokenOn } from '../test-support/browser-session.js';
import { type ShopUnderTest, shopUnderTest, TEST_OPERATOR } from '../test-support/shop-under-test.js';

// The operator's own sign-in and the CSRF rules of the operations view, over HTTP.
describe('the operator sign-in', () => {
  let shop: ShopUnderTest;

  beforeAll(async () => {
    shop = await shopUnderTest();
  });
  afterAll(() => shop?.close());

  async function operator(): Promise<BrowserSession> {
    const session = request.agent(shop.app);
    const response = await postForm(session, '/ops/sign-in', {
      password: TEST_OPERATOR.password,
      next: '/ops',
    });
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe('/ops');
    return session;
  }

  const reconcileFields = (token: string) => ({ key: 'demo-amira', token });

  it('sends anyone not signed in as operator to the operator sign-in, and refuses their posts', async () => {
    const visitor = request.agent(shop.app);
    for (const path of [
      '/ops',
      '/ops/webhooks',
      '/ops/reconcile',
      '/ops/account?key=demo-amira',
      '/ops/business?interval=day',
      '/ops/business/metrics.csv',
    ]) {
      const response = await visitor.get(path);
      expect(response.status).toBe(303);
      expect(response.headers.location).toBe(`/ops/sign-in?${new URLSearchParams({ next: path })}`);
    }
    expect((await postForm(visitor, '/ops/account/reconcile', { key: 'demo-amira' })).status).toBe(403);
    const page = await visitor.get('/ops/sign-in');
    expect(page.status).toBe(200);
    expect(page.text).toContain('type="password"');
  });

  it('refuses a wrong password, and signs in with the right one', async () => {
    const session = request.agent(shop.app);
    for (const password of ['wrong', `${TEST_OPERATOR.password}x`, '']) {
      const refused = await postForm(session, '/ops/sign-in', { password });
      expect(refused.status).toBe(401);
      expect(refused.text).toContain('Wrong password.');
    }
    expect((await session.get('/ops')).status).toBe(303);
    const signedIn = await operator();
    expect((await signedIn.get('/ops')).status).toBe(200);
  });

  it('is not a demo account’s: a signed-in customer is sent to the operator sign-in and refused', async () => {
    const customer = request.agent(shop.app);
    expect((await postForm(customer, '/sign-in', { accountId: 'demo-amira' })).status).toBe(303);
    expect((await customer.get('/account')).status).toBe(200);
    expect((await customer.get('/ops')).headers.location).toMatch(/^\/ops\/sign-in/);
    const shopToken = await tokenOn(customer, '/');
    expect((await postForm(customer, '/ops/account/reconcile', reconcileFields(shopToken))).status).toBe(403);
  });

  it('refuses an operator sign-in posted by another site', async () => {
    const session = request.agent(shop.app);
    const response = await postForm(
      session,
      '/ops/sign-in',
      { password: TEST_OPERATOR.password },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(response.status).toBe(403);
    expect((await session.get('/ops')).status).toBe(303);
  });

  it('refuses an operator’s post without its token, with a forged one, or from another site', async () => {
    const session = await operator();
    const token = await tokenOn(session, '/ops');
    expect((await postForm(session, '/ops/account/reconcile', { key: 'demo-amira' })).status).toBe(403);
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await postForm(session, '/ops/account/reconcile', reconcileFields(forged))).status).toBe(403);
    // A token of another operator sign-in is not this one's.
    const other = await operator();
    const othersToken = await tokenOn(other, '/ops');
    expect((await postForm(session, '/ops/account/reconcile', reconcileFields(othersToken))).status).toBe(
      403,
    );
    const crossSite = await postForm(session, '/ops/account/reconcile', reconcileFields(token), {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    const accepted = await postForm(session, '/ops/account/reconcile', reconcileFields(token));
    expect(accepted.status).toBe(200);
    expect(accepted.text).toContain('Reconciled just now');
  });

  it('signs the operator out, with the token', async () => {
    const session = await operator();
    expect((await postForm(session, '/ops/sign-out', {})).status).toBe(403);
    const token = await tokenOn(session, '/ops');
    const response = await postForm(session, '/ops/sign-out', { token });
    expect(response.status).toBe(303);
    expect((await session.get('/ops')).status).toBe(303);
  });
});

describe('without an operator password (the real service without OPERATOR_PASSWORD)', () => {
  let shop: ShopUnderTest;

  beforeAll(async () => {
    shop = await shopUnderTest({ operations: false });
  });
  afterAll(() => shop?.close());

  it('has no operations view, and says how to turn it on', async () => {
    const session = request.agent(shop.app);
    for (const path of ['/ops', '/ops/sign-in', '/ops/account?key=demo-amira']) {
      const response = await session.get(path);
      expect(response.status).toBe(404);
      expect(response.text).toContain('OPERATOR_PASSWORD');
    }
    const post = await postForm(session, '/ops/sign-in', { password: '' });
    expect(post.status).toBe(404);
    expect(setCookies(post)).toEqual([]);
  });
});
