/**
 * The Hono example, as `main.ts` starts it, paid once through the embedded sandbox the way a
 * subscriber pays: the offers page's form, the checkout's pages (createCheckoutDriver, from the
 * published @dcbkit/sandbox/testing), the return page, the gated page and the webhook.
 */
import { createCheckoutDriver, createClock } from '@dcbkit/sandbox/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningShop, startShop } from './start-shop.js';

let shop: RunningShop;
beforeAll(async () => {
  shop = await startShop({ clock: createClock({ frozen: true }) });
});
afterAll(() => shop?.close());

describe('the Hono example shop', () => {
  it('sells the full version once: form, checkout, return page, gate and webhook agree', async () => {
    const signIn = await fetch(`${shop.url}/sign-in?account=alice`, { redirect: 'manual' });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toBe('account=alice');
    const asAlice = { cookie };
    const gated = await fetch(`${shop.url}/premium`, { headers: asAlice, redirect: 'manual' });
    expect(gated.status).toBe(303);

    const offers = await (await fetch(`${shop.url}/`, { headers: asAlice })).text();
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(offers)?.[1] ?? '';
    const form = { offerUid: field('offerUid'), token: field('token') };
    expect(form.offerUid).toBe('offer_full_unlock');
    const posted = await fetch(`${shop.url}/billing/checkout`, {
      method: 'POST',
      headers: { ...asAlice, origin: shop.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
      redirect: 'manual',
    });
    expect(posted.status).toBe(303);
    const checkoutUrl = posted.headers.get('location') ?? '';
    expect(checkoutUrl.startsWith(`${shop.sandbox.checkoutBaseUrl}/c/`)).toBe(true);

    const outcome = await createCheckoutDriver(shop.sandbox).pay(checkoutUrl);
    expect(outcome.status).toBe('SUCCEEDED');
    expect(`${outcome.returnUrl?.origin}${outcome.returnUrl?.pathname}`).toBe(`${shop.url}/billing/return`);
    const thanks = await fetch(outcome.returnUrl ?? '', { headers: asAlice });
    expect(await thanks.text()).toContain('Thank you');
    expect(await (await fetch(`${shop.url}/premium`, { headers: asAlice })).text()).toContain(
      'The full version',
    );

    // The service's webhook lands after the return page granted: answered 200, and no second effect.
    await shop.sandbox.deliverDue();
    const deliveries = shop.sandbox.webhooks();
    expect(deliveries.map((delivery) => delivery.event)).toEqual([
      'payment.succeeded',
      'entitlement.granted',
    ]);
    expect(deliveries.flatMap((delivery) => delivery.attempts.map((attempt) => attempt.httpStatus))).toEqual([
      200, 200,
    ]);
    expect(await shop.kit.store.listByAccount('alice')).toEqual([
      expect.objectContaining({ productUid: 'prod_full_unlock', status: 'ACTIVE' }),
    ]);
  });
});
