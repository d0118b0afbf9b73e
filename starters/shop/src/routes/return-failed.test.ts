import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, postForm, tokenOn } from '../test-support/browser-session.js';
import { type ShopUnderTest, shopUnderTest } from '../test-support/shop-under-test.js';

/** The page's text, its markup's spaces folded. */
const textOf = (html: string) => html.replace(/\s+/g, ' ').replace(/&#39;/g, "'");

// Issue 54: a checkout ended by too many wrong PINs (the service gives no code for it) said only
// "The payment was not completed.". The return page and the account page now say what such a
// failure is, that nothing was charged, and that the subscriber may try again. Over HTTP, en/fr/ar.
describe('a checkout failed by too many wrong codes', () => {
  let shop: ShopUnderTest;
  let customer: BrowserSession;
  let returnPath: string;

  beforeAll(async () => {
    shop = await shopUnderTest();
    const { sandbox } = shop.billing;
    if (!sandbox) throw new Error('the shop should run the embedded sandbox');
    customer = request.agent(shop.app);
    await postForm(customer, '/sign-in', { accountId: 'demo-amira' });
    const checkout = await postForm(customer, '/checkout', {
      offerUid: 'offer_premium_monthly',
      token: await tokenOn(customer, '/'),
    });
    const outcome = await createCheckoutDriver(sandbox).fail(checkout.headers.location ?? '', {
      because: 'WRONG_PIN',
    });
    expect(outcome.status).toBe('FAILED');
    const url = new URL(outcome.returnUrl?.toString() ?? '/', shop.url);
    returnPath = `${url.pathname}${url.search}`;
  });
  afterAll(() => shop?.close());

  it.each([
    ['en', 'the code was entered wrongly too many times', 'Nothing was charged; you can try again.'],
    ['fr', 'le code a été mal saisi trop de fois', 'Rien n’a été prélevé ; vous pouvez réessayer.'],
    ['ar', 'أُدخل الرمز خطأً مرات كثيرة', 'يمكنك المحاولة مرة أخرى'],
  ])(
    'in %s, the return page and the account page say why and that nothing was charged',
    async (lang, why, after) => {
      await customer.get(`/language?lang=${lang}&next=/account`);
      for (const path of [returnPath, '/account']) {
        const page = textOf((await customer.get(path)).text);
        expect(page, path).toContain(why);
        expect(page, path).toContain(after);
        expect(page, path).not.toContain('The payment was not completed.');
      }
    },
  );
});
