import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, postForm, tokenOn } from '../test-support/browser-session.js';
import { type ShopUnderTest, shopUnderTest, TEST_OPERATOR } from '../test-support/shop-under-test.js';

// A day pass over HTTP (supertest): held, it gives no access; used, it opens the product for a day,
// which the account page, the operations view and the business view each say; then the day ends.
describe('a day pass', () => {
  let shop: ShopUnderTest;
  let customer: BrowserSession;
  let operator: BrowserSession;

  beforeAll(async () => {
    shop = await shopUnderTest();
    const { sandbox } = shop.billing;
    if (!sandbox) throw new Error('the shop should run the embedded sandbox');
    customer = request.agent(shop.app);
    await postForm(customer, '/sign-in', { accountId: 'demo-amira' });
    // The offer says what a pass gives before anyone buys it.
    expect(textOf(await customer.get('/'))).toContain(
      'Each pass gives 1 day of access from when you use it, in your account.',
    );
    const checkout = await postForm(customer, '/checkout', {
      offerUid: 'offer_day_pass',
      token: await tokenOn(customer, '/'),
    });
    const outcome = await createCheckoutDriver(sandbox).pay(checkout.headers.location ?? '');
    expect(outcome.status).toBe('SUCCEEDED');
    const returnUrl = new URL(outcome.returnUrl?.toString() ?? '/', shop.url);
    const thanks = textOf(await customer.get(`${returnUrl.pathname}${returnUrl.search}`));
    // Bought, not used: no access yet, and the page says where to start it.
    expect(thanks).toContain(
      'Your pass is in your account: use it there when you want your access to start.',
    );
    expect(thanks).not.toContain('You have access now.');
    operator = request.agent(shop.app);
    await postForm(operator, '/ops/sign-in', { password: TEST_OPERATOR.password });
  });
  afterAll(() => shop?.close());

  function textOf(response: { status: number; text: string }) {
    expect(response.status).toBe(200);
    return response.text.replace(/\s+/g, ' ');
  }
  const accessRow = (page: string) =>
    page.match(/<li><span>Day pass<\/span> <strong[^>]*>([^<]*)<\/strong>/)?.[1];

  it('gives no access while held, and says a pass is waiting to be used', async () => {
    const page = textOf(await customer.get('/account'));
    expect(accessRow(page)).toBe('No');
    expect(page).toContain('None: use a pass for a day of access');
    const ops = textOf(await operator.get('/ops/account?key=demo-amira'));
    expect(ops).toContain('No access until a pass is used: passes left: 1.');
  });

  it('opens the day pass for a day once used: the notice, the access, the operations view say until when', async () => {
    const { kit } = shop.billing;
    const usedAt = kit.now();
    const spent = await postForm(customer, '/account/passes/prod_day_pass/use', {
      token: await tokenOn(customer, '/account'),
    });
    expect(spent.status).toBe(303);
    const entitlement = await kit.store.get('demo-amira', 'prod_day_pass');
    const endsAt = entitlement?.unitAccessEndsAt ?? '';
    expect(Date.parse(endsAt) - usedAt.getTime()).toBeGreaterThanOrEqual(86_400_000);
    expect(Date.parse(endsAt) - usedAt.getTime()).toBeLessThan(86_400_000 + 60_000);

    const page = textOf(await customer.get('/account'));
    expect(page).toMatch(/Pass used: your access runs until [^.]+\d{4}[^.]*\. Passes left: 0\./);
    expect(accessRow(page)).toMatch(/^Yes, until .*\d{4}/);
    expect(page).toMatch(/<dt>Pass in use<\/dt><dd class="until">[^<]*\d{4}/);
    // The gate answers as the page does (kit.explain is the same rule).
    const explained = await kit.explain('demo-amira', { productUid: 'prod_day_pass' });
    expect(explained.products[0]?.reason).toMatchObject({
      code: 'unit_in_use',
      hasAccess: true,
      until: endsAt,
    });
    const ops = textOf(await operator.get('/ops/account?key=demo-amira'));
    expect(ops).toMatch(/Access until [^<]*\d{4}[^<]*: a pass in use \(passes left: 0\)\./);

    // The business view counts the spend once, however often the page is read.
    const day = new Date(`${usedAt.toISOString().slice(0, 10)}T00:00:00.000Z`);
    const report = await kit.metrics({
      from: day,
      to: new Date(day.getTime() + 86_400_000),
      interval: 'day',
    });
    const spends = report.rows.reduce((sum, row) => sum + row.unitsSpent, 0);
    expect(spends).toBe(1);
  });

  it('ends the access when the day is over', async () => {
    const { sandbox } = shop.billing;
    await sandbox?.advanceClock(86_400 + 60);
    const page = textOf(await customer.get('/account'));
    expect(accessRow(page)).toBe('No');
    expect(page).not.toContain('Pass in use');
    const ops = textOf(await operator.get('/ops/account?key=demo-amira'));
    expect(ops).toContain('No access: no pass left.');
  });
});
