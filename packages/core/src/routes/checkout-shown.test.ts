import { describe, expect, it } from 'vitest';
import { checkoutRecordOf } from '../kit/checkout-record.js';
import { memoryStore } from '../store/memory-store.js';
import { offers } from '../test-support/fixtures.js';
import { createPartnerRoutes, type RouteInput } from './partner-routes.js';
import { fakeClient, waitingPayment } from './test-support/fake-client.js';

const SHOP = 'https://shop.example';
const NOW = new Date('2030-01-01T10:00:00.000Z');

function checkoutWith(fields: Record<string, unknown>) {
  const store = memoryStore();
  const routes = createPartnerRoutes({
    client: fakeClient(waitingPayment((uid) => `https://checkout.example/c/${uid}`)),
    store,
    offers,
    grantSucceededPayment: async () => ({ outcome: 'not_succeeded', entitlement: undefined }),
    returnUrl: `${SHOP}/return`,
    now: () => NOW,
  });
  const input = {
    accountKey: 'alice',
    method: 'POST',
    fields: { offerUid: 'off_unlock', token: routes.formToken('alice'), ...fields },
    request: { origin: SHOP, secFetchSite: 'same-origin', simpleBody: true },
  } satisfies RouteInput;
  return { store, run: () => routes.checkout(input) };
}

describe('the checkout records what the shop showed before consent', () => {
  it('keeps the name, price and period as rendered, the language and the time, with the pending payment', async () => {
    const { store, run } = checkoutWith({
      shownName: 'Déblocage complet',
      shownPrice: '15,000 TND',
      shownPeriod: 'Paiement unique',
      shownLanguage: 'fr',
    });
    await run();
    const [pending] = await store.listPendingPaymentsOfAccount('alice');
    expect(pending?.shown).toEqual({
      name: 'Déblocage complet',
      price: '15,000 TND',
      period: 'Paiement unique',
      language: 'fr',
      at: NOW.toISOString(),
    });
    // Nothing about the subscriber: the record has no number, and no field the form did not give.
    expect(Object.keys(pending ?? {}).sort()).toEqual(
      [
        'accountKey',
        'checkoutUrl',
        'expiresAt',
        'offerUid',
        'paymentUid',
        'productUid',
        'recordedAt',
        'shown',
      ].sort(),
    );
  });

  it('keeps the free trial the page showed: its days and the first charge date, as rendered (issue 54)', async () => {
    const { store, run } = checkoutWith({
      shownName: 'Premium',
      shownPrice: '4.500 TND',
      shownPeriod: 'per month',
      shownLanguage: 'en',
      shownTrialDays: '14',
      shownFirstCharge: '15 January 2030',
    });
    await run();
    const [pending] = await store.listPendingPaymentsOfAccount('alice');
    expect(pending?.shown).toEqual({
      name: 'Premium',
      price: '4.500 TND',
      period: 'per month',
      language: 'en',
      trial: { days: 14, firstCharge: '15 January 2030' },
      at: NOW.toISOString(),
    });
  });

  it('records nothing shown when the form says nothing (a partner page that does not send it)', async () => {
    const { store, run } = checkoutWith({});
    await run();
    const [pending] = await store.listPendingPaymentsOfAccount('alice');
    expect(pending).toBeDefined();
    expect(pending?.shown).toBeUndefined();
  });

  it.each([
    ['no language', { shownName: 'Unlock', shownPrice: '15.000 TND' }],
    ['a name too long', { shownName: 'x'.repeat(201), shownPrice: '15.000 TND', shownLanguage: 'en' }],
    ['no price', { shownName: 'Unlock', shownLanguage: 'en' }],
    [
      'trial days without the first charge',
      { shownName: 'P', shownPrice: '4.500 TND', shownLanguage: 'en', shownTrialDays: '14' },
    ],
    [
      'a first charge without trial days',
      { shownName: 'P', shownPrice: '4.500 TND', shownLanguage: 'en', shownFirstCharge: '15 January 2030' },
    ],
    [
      'trial days that are not a count',
      {
        shownName: 'P',
        shownPrice: '4.500 TND',
        shownLanguage: 'en',
        shownTrialDays: '2 weeks',
        shownFirstCharge: 'x',
      },
    ],
    [
      'no trial days at all',
      {
        shownName: 'P',
        shownPrice: '4.500 TND',
        shownLanguage: 'en',
        shownTrialDays: '0',
        shownFirstCharge: 'x',
      },
    ],
  ])('refuses a form that says it badly: %s', async (_case, fields) => {
    const { store, run } = checkoutWith(fields);
    await expect(run()).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await store.listPendingPaymentsOfAccount('alice')).toEqual([]);
  });
});

describe('checkoutRecordOf', () => {
  const payment = (paymentUid: string, accountKey: string, recordedAt: string) => ({
    paymentUid,
    accountKey,
    productUid: 'prod_a',
    offerUid: 'off_a',
    recordedAt,
  });

  it('lists the accounts’ payments in the order they started, each once, or only those asked for', () => {
    const first = payment('pay_z', 'acct_a', '2030-01-01T00:00:00.000Z');
    const second = payment('pay_a', 'acct_b', '2030-01-01T00:05:00.000Z');
    const third = payment('pay_m', 'acct_a', '2030-01-01T00:09:00.000Z');
    const record = checkoutRecordOf(
      { accountKeys: ['acct_a', 'acct_b', 'acct_a'] },
      [[third, first], [second]],
      NOW,
    );
    expect(record).toEqual({
      at: NOW.toISOString(),
      accountKeys: ['acct_a', 'acct_b'],
      payments: [first, second, third],
    });
    expect(
      checkoutRecordOf({ accountKeys: ['acct_a'], paymentUids: ['pay_m'] }, [[third, first]], NOW).payments,
    ).toEqual([third]);
  });
});
