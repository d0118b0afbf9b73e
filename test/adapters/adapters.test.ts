import type { RequestListener } from 'node:http';
import { signWebhook } from '@dcbkit/core/webhooks';
import type { Sandbox } from '@dcbkit/sandbox';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../packages/sandbox/src/test-support/sandbox-fixture.js';
import { payOnCheckout } from '../support/checkout-driver.js';
import { expectEveryEntitlementExplained } from '../support/explain-every.js';
import { listen, type RunningServer } from '../support/listen.js';
import { APP_VARIANTS, accountHeader, type BodyParsing } from '../support/partner-apps.js';
import { createPartnerKit, type PartnerKit } from '../support/partner-kit.js';

interface Running {
  sandbox: Sandbox;
  app: RunningServer;
  kit: PartnerKit;
}

let running: Running | undefined;
afterEach(async () => {
  if (running) await expectEveryEntitlementExplained(running.kit);
  await running?.app.close();
  await running?.sandbox.close();
  running = undefined;
});

describe.each(APP_VARIANTS)('$name', (variant) => {
  async function start(bodyParsing: BodyParsing = 'none'): Promise<Running> {
    const sandbox = await startTestSandbox();
    let listener: RequestListener = (_req, res) => res.end();
    const app = await listen((req, res) => listener(req, res));
    const kit = createPartnerKit(sandbox, `${app.url}/return`);
    listener = await variant.build(kit, bodyParsing);
    sandbox.setWebhookUrl(`${app.url}/webhooks/dcb`);
    running = { sandbox, app, kit };
    return running;
  }

  function unlockEvent(sandbox: Sandbox, accountKey: string, paymentUid = 'pay_adapter_1') {
    return JSON.stringify({
      event: 'payment.succeeded',
      paymentUid,
      status: 'SUCCEEDED',
      orderId: `ord_${paymentUid}`,
      productUid: 'prod_full_unlock',
      offerUid: 'offer_full_unlock',
      subscriberUid: 'sbr_adapter',
      metadata: { accountKey },
      occurredAt: sandbox.clock.now().toISOString(),
    });
  }

  async function postWebhook(url: string, body: string, signature: string) {
    const response = await request(url)
      .post('/webhooks/dcb')
      .set({ 'content-type': 'application/json', 'service-signature': signature })
      .send(body);
    return { status: response.status, body: response.body as Record<string, unknown> };
  }

  /** A GET as the signed-in account's browser sends it (supertest follows no redirect). */
  const get = (url: string | URL, account: string) => {
    const { origin, pathname, search } = new URL(url);
    return request(origin).get(`${pathname}${search}`).set(as(account));
  };

  const as = (account: string) => ({ [accountHeader]: account });

  describe('webhooks', () => {
    it.each<BodyParsing>(['none', 'kept'])(
      'accepts a signed event, answers its duplicate 200 and refuses a bad signature (body parsing: %s)',
      async (bodyParsing) => {
        const { sandbox, app, kit } = await start(bodyParsing);
        const body = unlockEvent(sandbox, 'alice');
        const signature = signWebhook({ payload: body, secret: sandbox.credentials.webhookSecret });
        expect(await postWebhook(app.url, body, signature)).toEqual({
          status: 200,
          body: { received: true, outcome: 'applied' },
        });
        expect(await postWebhook(app.url, body, signature)).toEqual({
          status: 200,
          body: { received: true, outcome: 'duplicate' },
        });
        expect((await kit.store.get('alice', 'prod_full_unlock'))?.status).toBe('ACTIVE');

        const forged = unlockEvent(sandbox, 'mallory', 'pay_forged');
        const wrongSecret = signWebhook({ payload: forged, secret: 'whsec_not_the_service' });
        expect((await postWebhook(app.url, forged, wrongSecret)).status).toBe(401);
        expect(await kit.store.get('mallory', 'prod_full_unlock')).toBeUndefined();
      },
    );

    it('answers 500 at once, writes nothing and says how to fix it when a global JSON parser ate the raw body', async () => {
      const { sandbox, app, kit } = await start('discarded');
      const body = unlockEvent(sandbox, 'alice');
      const signature = signWebhook({ payload: body, secret: sandbox.credentials.webhookSecret });
      expect(await postWebhook(app.url, body, signature)).toEqual({
        status: 500,
        body: { received: false, error: 'body_not_raw' },
      });
      expect(await kit.store.get('alice', 'prod_full_unlock')).toBeUndefined();
      expect(kit.logs.join('\n')).toMatch(
        /raw body is gone.*(express\.json|bodyparser|fastifyDcbkit|request\.json|c\.req\.json)/,
      );
    });

    it('refuses a body over the size limit with 413', async () => {
      const { sandbox, app } = await start();
      const body = JSON.stringify({ event: 'payment.succeeded', padding: 'x'.repeat(70 * 1024) });
      const signature = signWebhook({ payload: body, secret: sandbox.credentials.webhookSecret });
      expect((await postWebhook(app.url, body, signature)).status).toBe(413);
    });
  });

  describe('partner routes on the sandbox', () => {
    /** A form post as the partner's page makes it: with this account's form token. */
    async function checkout(url: string, account: string, fields: Record<string, string>) {
      const token = running?.kit.routes.formToken(account) ?? '';
      return request(url)
        .post('/checkout')
        .set({ ...as(account), origin: url })
        .type('form')
        .send(new URLSearchParams({ token, ...fields }).toString());
    }

    it.each<BodyParsing>(['none', 'kept'])(
      'runs a checkout round trip: one payment per form, paid on the checkout pages, granted on return (body parsing: %s)',
      async (bodyParsing) => {
        const { sandbox, app, kit } = await start(bodyParsing);
        const token = kit.routes.formToken('alice');
        const first = await checkout(app.url, 'alice', { offerUid: 'offer_full_unlock', token });
        const again = await checkout(app.url, 'alice', { offerUid: 'offer_full_unlock', token });
        expect(first.status).toBe(303);
        const checkoutUrl = first.headers.location ?? '';
        expect(checkoutUrl).toMatch(new RegExp(`^${sandbox.checkoutBaseUrl}/c/pay_`));
        expect(again.headers.location).toBe(checkoutUrl);

        expect((await get(`${app.url}/unlock`, 'alice')).status).toBe(303);
        const returned = await payOnCheckout(sandbox, checkoutUrl);
        expect(`${returned.origin}${returned.pathname}`).toBe(`${app.url}/return`);

        const thanks = await get(returned, 'alice');
        expect(thanks.status).toBe(200);
        expect(thanks.body).toMatchObject({
          kind: 'return',
          state: 'succeeded',
          hasAccess: true,
        });
        expect((await get(returned, 'bob')).status).toBe(404);

        expect((await get(`${app.url}/unlock`, 'alice')).text).toBe('unlocked');
        expect((await get(`${app.url}/unlock`, 'bob')).headers.location).toBe(
          '/offers?product=prod_full_unlock',
        );

        // The webhook lands after the return page granted: applied, and no second effect.
        await sandbox.deliverDue();
        const answers = sandbox
          .webhooks()
          .flatMap((delivery) => delivery.attempts.map((attempt) => attempt.httpStatus));
        expect(answers.length).toBeGreaterThan(0);
        expect(answers.every((status) => status === 200)).toBe(true);
        expect(await kit.store.listByAccount('alice')).toEqual([
          expect.objectContaining({ productUid: 'prod_full_unlock', status: 'ACTIVE' }),
        ]);
      },
    );

    it("refuses what the form gets wrong and what is not the signed-in account's", async () => {
      const { app } = await start();
      const json = await request(app.url)
        .post('/checkout')
        .set(as('alice'))
        .send({ offerUid: 'offer_full_unlock' });
      expect(json.status).toBe(400);
      expect((await checkout(app.url, 'alice', { offerUid: 'no_such_offer' })).status).toBe(404);
      expect((await request(app.url).post('/checkout')).status).toBe(401);
      expect((await get(`${app.url}/return?paymentUid=pay_unknown`, 'alice')).status).toBe(404);
      expect((await get(`${app.url}/premium`, 'alice')).status).toBe(403);
      const cancel = await request(app.url)
        .post('/subscriptions/sub_unknown/cancel')
        .set(as('alice'))
        .send({ when: 'NOW' });
      expect(cancel.status).toBe(404);
    });

    it('cancels at period end, resumes and cancels now, only for the owner, with the store right before and after the webhooks', async () => {
      const { sandbox, app, kit } = await start();
      const started = await checkout(app.url, 'alice', { offerUid: 'offer_premium_monthly' });
      const returned = await payOnCheckout(sandbox, started.headers.location ?? '');
      const thanks = (await get(returned, 'alice')).body as {
        state: string;
        entitlement: { status: string; subscriptionUid: string; trialEndsAt: string | null };
      };
      expect(thanks.state).toBe('succeeded');
      expect(thanks.entitlement.status).toBe('TRIALING');
      expect(thanks.entitlement.trialEndsAt).toMatch(/^2030-/);
      const { subscriptionUid } = thanks.entitlement;
      await sandbox.deliverDue();

      const act = (account: string, action: 'cancel' | 'resume', when?: string) =>
        request(app.url)
          .post(`/subscriptions/${subscriptionUid}/${action}`)
          .set(as(account))
          .send(when ? { when } : {});
      const read = async (response: request.Response) => ({
        status: response.status,
        view: response.body as {
          subscription?: { status: string; cancelAt: string | null };
          entitlement?: { status: string };
          hasAccess?: boolean;
        },
      });
      const settled = async () => {
        await sandbox.deliverDue();
        return (await kit.store.get('alice', 'prod_premium'))?.status;
      };

      expect((await act('bob', 'cancel', 'PERIOD_END')).status).toBe(404);
      expect((await act('alice', 'cancel', 'LATER')).status).toBe(400);

      const scheduled = await read(await act('alice', 'cancel', 'PERIOD_END'));
      expect(scheduled).toMatchObject({
        status: 200,
        view: {
          subscription: { status: 'PRE_CANCELED' },
          entitlement: { status: 'PRE_CANCELED' },
          hasAccess: true,
        },
      });
      await sandbox.advanceClock(60);
      expect(await settled()).toBe('PRE_CANCELED');

      // A resumed trial is the trial again: TRIALING until its end, where the first charge comes.
      const resumed = await read(await act('alice', 'resume'));
      expect(resumed).toMatchObject({
        status: 200,
        view: {
          subscription: { status: 'TRIALING', cancelAt: null },
          entitlement: { status: 'TRIALING' },
          hasAccess: true,
        },
      });
      await sandbox.advanceClock(60);
      expect(await settled()).toBe('TRIALING');
      expect((await kit.store.get('alice', 'prod_premium'))?.trialEndsAt).toBe(
        thanks.entitlement.trialEndsAt,
      );
      expect((await act('alice', 'resume')).status).toBe(409);

      const ended = await read(await act('alice', 'cancel', 'NOW'));
      expect(ended).toMatchObject({
        status: 200,
        view: { subscription: { status: 'CANCELED', cancelAt: null }, hasAccess: false },
      });
      expect(await settled()).toBe('REVOKED');
      expect((await get(`${app.url}/premium`, 'alice')).status).toBe(403);
      expect((await act('alice', 'cancel', 'NOW')).status).toBe(409);
    });

    it('answers the embed URL for embedded presentation', async () => {
      const { sandbox, app } = await start();
      const answer = await checkout(app.url, 'alice', {
        offerUid: 'offer_day_pass',
        presentation: 'embedded',
      });
      expect(answer.status).toBe(200);
      const view = answer.body as { kind: string; checkoutUrl: string };
      expect(view.kind).toBe('checkout_embedded');
      expect(view.checkoutUrl.startsWith(`${sandbox.checkoutBaseUrl}/c/`)).toBe(true);
    });
  });
});
