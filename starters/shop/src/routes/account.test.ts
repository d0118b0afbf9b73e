import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Language, translator } from '../i18n.js';
import { type BrowserSession, postForm, tokenOn } from '../test-support/browser-session.js';
import { type ShopUnderTest, shopUnderTest, TEST_OPERATOR } from '../test-support/shop-under-test.js';

// A free trial cancelled at its end and resumed is the trial again: the account page and the
// operations view say it runs until its end, where the first charge comes, never that it is paid.
describe('a resumed free trial', () => {
  let shop: ShopUnderTest;
  let customer: BrowserSession;
  let operator: BrowserSession;
  let subscriptionUid: string;

  /** Lets the embedded sandbox post what is due, until the history holds `count` webhooks. */
  async function webhooksLanded(count: number): Promise<void> {
    const { sandbox, kit } = shop.billing;
    for (let attempt = 0; attempt < 100; attempt++) {
      const entries = await kit.store.listHistory({ accountKey: 'demo-amira', limit: 50 });
      if (entries.filter((entry) => entry.source === 'webhook').length >= count) return;
      await sandbox?.deliverDue();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`fewer than ${count} webhooks landed`);
  }

  async function act(verb: 'cancel' | 'resume', fields: Record<string, string> = {}) {
    const path = `/account/subscriptions/${subscriptionUid}/${verb}`;
    const token = await tokenOn(customer, verb === 'cancel' ? `${path}?when=PERIOD_END` : path);
    const answer = await postForm(customer, path, { ...fields, token });
    expect(answer.status).toBe(303);
  }

  beforeAll(async () => {
    shop = await shopUnderTest();
    const { sandbox, kit } = shop.billing;
    if (!sandbox) throw new Error('the shop should run the embedded sandbox');
    customer = request.agent(shop.app);
    await postForm(customer, '/sign-in', { accountId: 'demo-amira' });
    const checkout = await postForm(customer, '/checkout', {
      offerUid: 'offer_premium_monthly',
      token: await tokenOn(customer, '/'),
    });
    const outcome = await createCheckoutDriver(sandbox).pay(checkout.headers.location ?? '');
    expect(outcome.status).toBe('SUCCEEDED');
    const returnUrl = new URL(outcome.returnUrl?.toString() ?? '/', shop.url);
    await customer.get(`${returnUrl.pathname}${returnUrl.search}`);
    await webhooksLanded(2);
    subscriptionUid = (await kit.store.get('demo-amira', 'prod_premium'))?.subscriptionUid ?? '';
    await act('cancel', { when: 'PERIOD_END' });
    await act('resume');
    await webhooksLanded(4);
    operator = request.agent(shop.app);
    await postForm(operator, '/ops/sign-in', { password: TEST_OPERATOR.password });
  });
  afterAll(() => shop?.close());

  const textOf = (response: { status: number; text: string }) => {
    expect(response.status).toBe(200);
    return response.text.replace(/\s+/g, ' ');
  };

  it('is TRIALING in the store, its trial end kept, as the sandbox says', async () => {
    const entitlement = await shop.billing.kit.store.get('demo-amira', 'prod_premium');
    expect(entitlement).toMatchObject({
      status: 'TRIALING',
      cancelAt: null,
      trialEndsAt: expect.any(String),
    });
    const explained = await shop.billing.kit.explain('demo-amira', {
      productUid: 'prod_premium',
      read: true,
    });
    expect(explained.products[0]).toMatchObject({
      reason: { code: 'trialing', until: entitlement?.trialEndsAt, firstChargeAt: entitlement?.trialEndsAt },
      service: { status: 'TRIALING', drift: false },
    });
  });

  it.each<[Language, string, string, string, RegExp]>([
    ['en', 'Free trial', 'Free trial ends', 'First charge', /TND 4\.500 on [^<]+; nothing is charged before/],
    [
      'fr',
      'Essai gratuit',
      'Fin de l’essai gratuit',
      'Premier prélèvement',
      /4,500 TND le [^<]+ ; rien n’est prélevé avant/,
    ],
    ['ar', 'تجربة مجانية', 'نهاية التجربة المجانية', 'أول خصم', /في [^<]+؛ لا يُخصم شيء قبل ذلك/],
  ])(
    'the account page in %s: the trial, its end and the first charge, no period as if paid',
    async (lang, status, trialEnds, firstCharge, charge) => {
      await customer.get(`/language?lang=${lang}&next=/account`);
      const page = textOf(await customer.get('/account'));
      expect(page).toContain(`<dd class="status">${status}</dd>`);
      expect(page).toContain(`<dt>${trialEnds}</dt>`);
      expect(page).toContain(`<dt>${firstCharge}</dt>`);
      expect(page).toMatch(charge);
      // Nothing suggests a paid period: no "Active", no "current period ends".
      const t = translator(lang);
      expect(page).not.toContain(`<dd class="status">${t('status.ACTIVE')}</dd>`);
      expect(page).not.toContain(`<dt>${t('account.periodEnd')}</dt>`);
    },
  );

  it.each<[Language, string, string, string]>([
    [
      'en',
      'Access: free trial until',
      'when the first charge is due',
      'Cancelled, ends at the end of the period → Free trial',
    ],
    [
      'fr',
      'Accès : essai gratuit jusqu’au',
      'date du premier prélèvement',
      'Résilié, se termine à la fin de la période → Essai gratuit',
    ],
    ['ar', 'وصول: تجربة مجانية حتى', 'موعد أول خصم', '← تجربة مجانية'],
  ])(
    'the operations view in %s: the trial and its first charge, and the resume → the trial',
    async (lang, reason, charge, change) => {
      await operator.get(`/language?lang=${lang}&next=/ops`);
      const page = textOf(await operator.get('/ops/account?key=demo-amira'));
      expect(page).toContain(reason);
      expect(page).toContain(charge);
      expect(page).toContain(change);
    },
  );

  it.each<[Language, RegExp, string]>([
    [
      'en',
      /Your free trial goes on: nothing is charged before [^<]+, when the first charge of TND 4\.500 per month comes\./,
      'It renews again',
    ],
    [
      'fr',
      /Votre essai gratuit continue : rien n’est prélevé avant le [^<]+, date du premier prélèvement de 4,500 TND/,
      'Il se renouvelle',
    ],
    ['ar', /تستمر تجربتك المجانية: لا يُخصم شيء قبل [^<]+، موعد أول خصم بقيمة/, 'سيتجدد مرة أخرى'],
  ])(
    'resuming during the trial in %s says the first charge date, not a renewal (issue 54)',
    async (lang, says, renews) => {
      await act('cancel', { when: 'PERIOD_END' });
      try {
        await customer.get(`/language?lang=${lang}&next=/account`);
        const page = textOf(await customer.get(`/account/subscriptions/${subscriptionUid}/resume`));
        expect(page).toMatch(says);
        expect(page).not.toContain(renews);
      } finally {
        await act('resume');
      }
    },
  );
});
