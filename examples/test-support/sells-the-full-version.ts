// The journey both example shops (examples/fastify, examples/hono) are tested with: the same
// pages and routes on another framework, so one subscriber's path checks both.
import type { DcbKit } from '@dcbkit/core';
import { createCheckoutDriver, type Sandbox } from '@dcbkit/sandbox/testing';
import { expect } from 'vitest';

/** What the journey needs of a running example shop. */
export interface ExampleShop {
  url: string;
  kit: DcbKit;
  sandbox: Sandbox;
}

/**
 * Sells the full version once the way a subscriber pays: the offers page's form, the checkout's
 * pages (createCheckoutDriver, from the published @dcbkit/sandbox/testing), the return page, the
 * gated page and the webhook, which must all agree.
 */
export async function sellsTheFullVersionOnce(shop: ExampleShop): Promise<void> {
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
  expect(deliveries.map((delivery) => delivery.event)).toEqual(['payment.succeeded', 'entitlement.granted']);
  expect(deliveries.flatMap((delivery) => delivery.attempts.map((attempt) => attempt.httpStatus))).toEqual([
    200, 200,
  ]);
  expect(await shop.kit.store.listByAccount('alice')).toEqual([
    expect.objectContaining({ productUid: 'prod_full_unlock', status: 'ACTIVE' }),
  ]);
}
