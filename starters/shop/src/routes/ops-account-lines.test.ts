import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, postForm, tokenOn } from '../test-support/browser-session.js';
import { type ShopUnderTest, shopUnderTest, TEST_OPERATOR } from '../test-support/shop-under-test.js';

// Issue 54: the operator goes from an account to its phone lines. The account page lists the
// lines (the service's subscriberUid) the account paid from, each a link to the line's page,
// which names the account back. Over HTTP (supertest), in en, fr and ar.
describe('an account’s lines on the operations view', () => {
  let shop: ShopUnderTest;
  let operator: BrowserSession;
  let line: string;

  beforeAll(async () => {
    shop = await shopUnderTest();
    const { sandbox, kit } = shop.billing;
    if (!sandbox) throw new Error('the shop should run the embedded sandbox');
    const customer = request.agent(shop.app);
    await postForm(customer, '/sign-in', { accountId: 'demo-amira' });
    const checkout = await postForm(customer, '/checkout', {
      offerUid: 'offer_day_pass',
      token: await tokenOn(customer, '/'),
    });
    const outcome = await createCheckoutDriver(sandbox).pay(checkout.headers.location ?? '');
    expect(outcome.status).toBe('SUCCEEDED');
    const returnUrl = new URL(outcome.returnUrl?.toString() ?? '/', shop.url);
    await customer.get(`${returnUrl.pathname}${returnUrl.search}`);
    const bought = await kit.store.get('demo-amira', 'prod_day_pass');
    line = bought?.subscriberUid ?? '';
    expect(line).toMatch(/^sbr_/);
    operator = request.agent(shop.app);
    await postForm(operator, '/ops/sign-in', { password: TEST_OPERATOR.password });
  });
  afterAll(() => shop?.close());

  it.each([
    ['en', 'Phone lines'],
    ['fr', 'Lignes téléphoniques'],
    ['ar', 'خطوط الهاتف'],
  ])('in %s: lists the line with a link to its page, which names the account', async (lang, title) => {
    await operator.get(`/language?lang=${lang}&next=/ops`);
    const page = (await operator.get('/ops/account?key=demo-amira')).text;
    expect(page).toContain(`<h2 id="lines-title">${title}</h2>`);
    const href = `/ops/line?line=${encodeURIComponent(line)}`;
    expect(page).toContain(`<a href="${href}"><span class="code" dir="ltr">${line}</span></a>`);
    const linePage = await operator.get(href);
    expect(linePage.status).toBe(200);
    expect(linePage.text).toContain('demo-amira');
  });

  it('says there is no line yet for an account that never paid', async () => {
    await operator.get('/language?lang=en&next=/ops');
    const page = (await operator.get('/ops/account?key=demo-lea')).text;
    expect(page).toContain('No line yet: the service names a line once one of its payments goes through.');
    expect(page).not.toContain('/ops/line?line=');
  });
});
