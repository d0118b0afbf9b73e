import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, postForm } from '../test-support/browser-session.js';
import { type ShopUnderTest, shopUnderTest, TEST_OPERATOR } from '../test-support/shop-under-test.js';

/** Unescapes what the templates escape, for comparing a field's value with its text. */
const unescaped = (html: string) =>
  html
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The hidden fields of the offer's first checkout form, as a browser would post them. */
function formOf(page: string, offerUid: string): Record<string, string> {
  const card = page.slice(page.indexOf(`id="${offerUid}"`));
  const form = card.slice(0, card.indexOf('</form>'));
  return Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map(
      ([, name = '', value = '']) => [name, unescaped(value)],
    ),
  );
}

// Issue 54: the checkout record (what the shop showed before consent, for a complaint) keeps the
// free trial the page offered: its days and the first charge's date, as the page wrote them; the
// operations table and the JSON export show it. Over HTTP (supertest), in en, fr and ar.
describe('the trial shown before a checkout, in the record', () => {
  let shop: ShopUnderTest;
  let operator: BrowserSession;

  beforeAll(async () => {
    shop = await shopUnderTest();
    operator = request.agent(shop.app);
    await postForm(operator, '/ops/sign-in', { password: TEST_OPERATOR.password });
  });
  afterAll(() => shop?.close());

  it.each([
    ['en', 'demo-amira', '7 days, nothing charged today; then', 'free trial shown: 7 days, first charge on'],
    [
      'fr',
      'demo-youssef',
      '7 jours, rien n’est débité aujourd’hui ; ensuite',
      'essai gratuit affiché : 7 jours, premier prélèvement le',
    ],
    ['ar', 'demo-lea', '7 أيام، لا يُخصم شيء اليوم؛ ثم', 'التجربة المجانية المعروضة: 7 أيام، أول خصم في'],
  ])(
    'in %s: the offers page says the first charge date, and the record keeps it',
    async (lang, account, offered, recorded) => {
      const customer = request.agent(shop.app);
      await postForm(customer, '/sign-in', { accountId: account });
      await customer.get(`/language?lang=${lang}&next=/`);
      const page = (await customer.get('/')).text;
      const fields = formOf(page, 'offer_premium_monthly');
      expect(fields).toMatchObject({ shownTrialDays: '7', shownLanguage: lang });
      const firstCharge = fields.shownFirstCharge ?? '';
      expect(firstCharge).not.toBe('');
      // The page says it: the same date the form sends.
      expect(unescaped(page)).toContain(offered);
      expect(unescaped(page)).toContain(firstCharge);

      const started = await postForm(customer, '/checkout', fields);
      expect(started.status).toBe(303);

      // The operator reads the page in the same language here; the date stays in the page's words.
      await operator.get(`/language?lang=${lang}&next=/ops`);
      const table = unescaped((await operator.get(`/ops/account?key=${account}`)).text);
      expect(table).toContain(`${recorded} ${firstCharge}`);
      const exported = await operator.get(`/ops/account/checkouts.json?key=${account}`);
      expect(exported.status).toBe(200);
      const record = JSON.parse(exported.text) as { payments: Array<{ shown?: { trial?: unknown } }> };
      expect(record.payments.at(-1)?.shown?.trial).toEqual({ days: 7, firstCharge });
    },
  );

  it('records no trial for an offer without one', async () => {
    const customer = request.agent(shop.app);
    await postForm(customer, '/sign-in', { accountId: 'demo-amira' });
    const fields = formOf((await customer.get('/')).text, 'offer_day_pass');
    expect(fields.shownTrialDays).toBeUndefined();
    await postForm(customer, '/checkout', fields);
    const exported = await operator.get('/ops/account/checkouts.json?key=demo-amira');
    const record = JSON.parse(exported.text) as {
      payments: Array<{ offerUid: string; shown?: { trial?: unknown } }>;
    };
    const pass = record.payments.find((payment) => payment.offerUid === 'offer_day_pass');
    expect(pass?.shown).toBeDefined();
    expect(pass?.shown?.trial).toBeUndefined();
  });
});
