import { configFromEnv, createDcbKit, type DcbKit, type DcbLogger } from '@dcbkit/core';
import { signWebhook } from '@dcbkit/core/webhooks';
import { beforeEach, describe, expect, it } from 'vitest';
import { offlineKit } from '../../core/src/test-support/offline-kit.js';
import { createNextHandlers } from './create-next-handlers.js';
import { createNextWebhook } from './create-next-webhook.js';

// The handlers on a real kit; spending a unit and the access gate only touch the store, so the
// client's service is never called (its address has nothing listening).
const SECRET = 'whsec_next_handlers_test';
const SHOP = 'https://shop.example';
const logs: string[] = [];
const logger: DcbLogger = {
  warn: (_fields, message) => logs.push(message),
  error: (_fields, message) => logs.push(message),
};

let made: number;
const makeKit = (): DcbKit => {
  made++;
  return offlineKit({ webhookSecrets: SECRET, returnUrl: `${SHOP}/billing/return`, logger });
};
beforeEach(() => {
  made = 0;
  logs.length = 0;
});

const accountOf = (request: Request) => request.headers.get('x-account') ?? undefined;

function purchase(account: string): Request {
  const body = JSON.stringify({
    event: 'payment.succeeded',
    paymentUid: `pay_next_${account}`,
    status: 'SUCCEEDED',
    orderId: `ord_next_${account}`,
    productUid: 'prod_credits',
    offerUid: 'off_credits',
    subscriberUid: 'sbr_next',
    metadata: { accountKey: account },
    occurredAt: new Date().toISOString(),
  });
  return new Request(`${SHOP}/webhooks/dcb`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'service-signature': signWebhook({ payload: body, secret: SECRET }),
    },
    body,
  });
}

/** Spending alice's unit: a form post with her token, as her page makes it. */
function spend(kit: DcbKit): Request {
  return new Request(`${SHOP}/passes/prod_credits/use`, {
    method: 'POST',
    headers: { 'x-account': 'alice', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: kit.routes.formToken('alice') }),
  });
}

describe('createNextHandlers', () => {
  it('makes the kit at the first request, not when the route modules are loaded, and once for every route', async () => {
    const dcb = createNextHandlers({ kit: makeKit, signedInAccount: accountOf });
    const POST = dcb.webhook();
    const spendUnit = dcb.spendUnit();
    const premium = dcb.requireAccess('prod_credits');
    expect(made).toBe(0);

    expect(await (await POST(purchase('alice'))).json()).toEqual({ received: true, outcome: 'applied' });
    const kit = await dcb.kit();
    const spent = await spendUnit(spend(kit), { params: Promise.resolve({ productUid: 'prod_credits' }) });
    expect(await spent.json()).toMatchObject({
      kind: 'unit_spent',
      productUid: 'prod_credits',
      unitsLeft: 0,
    });
    expect(await premium(new Request(`${SHOP}/premium`, { headers: { 'x-account': 'bob' } }))).toMatchObject({
      status: 403,
    });
    expect(made).toBe(1);
  });

  it('lets `next build` load every route without DCB_*: the error comes with the first request, naming them', async () => {
    const dcb = createNextHandlers({
      kit: () => createDcbKit({ ...configFromEnv({}), offers: [] }),
      signedInAccount: accountOf,
    });
    const POST = dcb.webhook();
    const GET = dcb.returnPage();
    await expect(POST(purchase('alice'))).rejects.toMatchObject({
      code: 'invalid_env',
      message: expect.stringContaining('DCB_WEBHOOK_SECRET'),
    });
    await expect(GET(new Request(`${SHOP}/billing/return?paymentUid=pay_1`))).rejects.toMatchObject({
      code: 'invalid_env',
    });
  });

  it('takes the params as Next.js gives them: a Promise since Next.js 15, an object before; a catch-all is no field', async () => {
    const dcb = createNextHandlers({ kit: makeKit, signedInAccount: accountOf });
    await dcb.webhook()(purchase('alice'));
    const kit = await dcb.kit();
    const spendUnit = dcb.spendUnit();
    const noProduct = await spendUnit(spend(kit), {
      params: Promise.resolve({ productUid: ['prod_credits'] }),
    });
    expect(noProduct.status).toBe(400);
    const next14 = await spendUnit(spend(kit), { params: { productUid: 'prod_credits' } });
    expect(await next14.json()).toMatchObject({ kind: 'unit_spent', unitsLeft: 0 });
    const again = await spendUnit(spend(kit), { params: Promise.resolve({ productUid: 'prod_credits' }) });
    expect(again.status).toBe(409);
  });

  it('gates a route handler or a middleware: undefined lets the request through, else 403 or the offers page', async () => {
    const dcb = createNextHandlers({ kit: makeKit, signedInAccount: accountOf, offersPage: '/pricing' });
    await dcb.webhook()(purchase('alice'));
    const as = (account: string) => new Request(`${SHOP}/premium`, { headers: { 'x-account': account } });
    expect(await dcb.requireAccess('prod_credits')(as('alice'))).toBeUndefined();
    const redirected = await dcb.requireAccess('prod_credits')(as('bob'));
    expect(redirected?.status).toBe(303);
    expect(redirected?.headers.get('location')).toBe('/pricing?product=prod_credits');
    const own = dcb.requireAccess('prod_credits', { redirectTo: '/offers' });
    expect((await own(as('bob')))?.headers.get('location')).toBe('/offers?product=prod_credits');
  });

  it('refuses a kit that is not a function to make it, naming the fix', () => {
    const kit = makeKit();
    expect(() =>
      createNextHandlers({ kit: kit as unknown as () => DcbKit, signedInAccount: accountOf }),
    ).toThrowError(
      expect.objectContaining({ code: 'invalid_option', message: expect.stringContaining('createDcbKit') }),
    );
  });
});

describe('createNextWebhook', () => {
  it('refuses the handler itself: made at import, it would need DCB_* at `next build`', () => {
    const kit = makeKit();
    expect(() => createNextWebhook(kit.webhook as unknown as () => DcbKit['webhook'])).toThrowError(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining('() => kit.webhook'),
      }),
    );
    expect(() => createNextWebhook('kit.webhook' as unknown as () => DcbKit['webhook'])).toThrowError(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });

  it('answers 500 at once, and logs how to read a copy, when the route read the body first', async () => {
    const kit = makeKit();
    const webhook = createNextWebhook(() => kit.webhook);
    const POST = async (request: Request) => {
      await request.json();
      return webhook(request);
    };
    const answer = await POST(purchase('alice'));
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({ received: false, error: 'body_not_raw' });
    expect(logs.join('\n')).toMatch(/raw body is gone.*request\.clone\(\)\.json\(\)/);
    expect(await kit.store.get('alice', 'prod_credits')).toBeUndefined();
  });
});
