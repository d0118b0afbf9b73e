import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, postForm, tokenOn } from '../test-support/browser-session.js';
import { type ShopUnderTest, shopUnderTest } from '../test-support/shop-under-test.js';

const LINE = '+21620000011';

/** The page's text, its markup's spaces folded, its apostrophes as typed. */
const textOf = (html: string) => html.replace(/\s+/g, ' ').replace(/&#39;/g, "'");

// Issue 54: two accounts on one phone line each subscribe to the paid monthly Premium, so the line
// pays twice. Each account's page tells its subscriber (the operator already is), in en, fr and
// ar, with a link to cancel their own subscription; once one of them is cancelled at period end,
// the line pays once from then and neither page says it any more. Over HTTP (supertest).
describe('the subscriber told that their line pays twice', () => {
  let shop: ShopUnderTest;
  const customers: Record<string, BrowserSession> = {};

  beforeAll(async () => {
    shop = await shopUnderTest();
    const { sandbox } = shop.billing;
    if (!sandbox) throw new Error('the shop should run the embedded sandbox');
    for (const accountId of ['demo-amira', 'demo-youssef', 'demo-lea']) {
      const customer = request.agent(shop.app);
      await postForm(customer, '/sign-in', { accountId });
      customers[accountId] = customer;
    }
    const buy = async (accountId: string, msisdn: string) => {
      const customer = customers[accountId] as BrowserSession;
      const checkout = await postForm(customer, '/checkout', {
        offerUid: 'offer_premium_monthly_paid',
        token: await tokenOn(customer, '/'),
      });
      const outcome = await createCheckoutDriver(sandbox).pay(checkout.headers.location ?? '', { msisdn });
      expect(outcome.status).toBe('SUCCEEDED');
      await sandbox.deliverDue();
    };
    await buy('demo-amira', LINE);
    await buy('demo-youssef', LINE);
    // Léa subscribes from a phone of her own: her line pays once.
    await buy('demo-lea', '+21620000098');
  }, 60_000);
  afterAll(() => shop?.close());

  const ownSubscription = async (accountKey: string) =>
    (await shop.billing.kit.store.listByAccount(accountKey)).find((held) => held.type === 'SUBSCRIPTION')
      ?.subscriptionUid ?? '';

  it.each([
    [
      'en',
      'Your phone line pays twice for Premium',
      'Another account on the same phone line subscribes to it too',
    ],
    ['fr', 'Votre ligne paie deux fois Premium', 'Un autre compte sur la même ligne y est aussi abonné'],
    ['ar', 'خط هاتفك يدفع مرتين مقابل', 'حساب آخر على خط الهاتف نفسه مشترك فيه أيضًا'],
  ])('in %s, each account on the line is told, with a link to cancel its own', async (lang, title, why) => {
    for (const account of ['demo-amira', 'demo-youssef']) {
      const customer = customers[account] as BrowserSession;
      await customer.get(`/language?lang=${lang}&next=/account`);
      const page = textOf((await customer.get('/account')).text);
      expect(page, account).toContain(title);
      expect(page, account).toContain(why);
      const uid = await ownSubscription(account);
      expect(uid).not.toBe('');
      // The way out is this account's own subscription, never the other's.
      expect(page).toMatch(
        new RegExp(
          `<section class="card line-twice"[^]*href="/account/subscriptions/${uid}/cancel\\?when=PERIOD_END"`,
        ),
      );
      const other = await ownSubscription(account === 'demo-amira' ? 'demo-youssef' : 'demo-amira');
      expect(page).not.toContain(`/account/subscriptions/${other}/`);
    }
    const alone = customers['demo-lea'] as BrowserSession;
    await alone.get(`/language?lang=${lang}&next=/account`);
    expect(textOf((await alone.get('/account')).text)).not.toContain('line-twice');
  });

  it('tells neither once one of the two is cancelled at period end: the line pays once from then', async () => {
    const youssef = customers['demo-youssef'] as BrowserSession;
    await youssef.get('/language?lang=en&next=/account');
    const uid = await ownSubscription('demo-youssef');
    const cancelled = await postForm(youssef, `/account/subscriptions/${uid}/cancel`, {
      when: 'PERIOD_END',
      token: await tokenOn(youssef, `/account/subscriptions/${uid}/cancel?when=PERIOD_END`),
    });
    expect(cancelled.status).toBeLessThan(400);
    for (const account of ['demo-amira', 'demo-youssef']) {
      const page = (await (customers[account] as BrowserSession).get('/account')).text;
      expect(page, account).not.toContain('line-twice');
    }
  });
});
