/**
 * Issue 25: the repros of an independent attack run, each as a regression test of the rule in core
 * (the adapter suites in test/adapters run the same cases through Express 4/5 and Koa 2/3).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberPendingPayment } from '../apply/pending-payments.js';
import type { DcbClient } from '../client/create-client.js';
import { DcbApiError } from '../client/errors.js';
import { memoryStore } from '../store/memory-store.js';
import { offers } from '../test-support/fixtures.js';
import { createPartnerRoutes, type PartnerRoutesOptions, type RouteInput } from './partner-routes.js';
import { fakeClient, waitingPayment } from './test-support/fake-client.js';

const SHOP = 'https://shop.example';
const DAY = 24 * 60 * 60 * 1000;

function routesWith(options: Partial<PartnerRoutesOptions> = {}) {
  const logger = { warn: vi.fn(), error: vi.fn() };
  const onError = vi.fn();
  const routes = createPartnerRoutes({
    client: fakeClient(waitingPayment((uid) => `https://checkout.example/c/${uid}`)),
    store: memoryStore(),
    offers,
    grantSucceededPayment: async () => ({ outcome: 'not_succeeded', entitlement: undefined }),
    returnUrl: `${SHOP}/return`,
    logger,
    onError,
    ...options,
  });
  return { routes, logger, onError };
}

const sameOrigin = { origin: SHOP, secFetchSite: 'same-origin', simpleBody: true };

function formPost(routes: ReturnType<typeof routesWith>['routes'], fields: Record<string, unknown> = {}) {
  return {
    accountKey: 'alice',
    method: 'POST',
    fields: { offerUid: 'off_unlock', token: routes.formToken('alice'), ...fields },
    request: sameOrigin,
  } satisfies RouteInput;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('state-changing routes act on POST only', () => {
  it.each(['GET', 'HEAD', 'PUT', 'DELETE', 'get'])(
    '%s to each of them answers method_not_allowed',
    async (method) => {
      const calls: string[] = [];
      const { routes } = routesWith({
        client: fakeClient(
          waitingPayment((uid) => `https://c.example/c/${uid}`),
          calls,
        ),
      });
      // What a link carries: the fields in the query, the session's cookie, no token, no Origin.
      const link = { accountKey: 'alice', method, fields: { offerUid: 'off_unlock', when: 'NOW' } };
      for (const action of [
        routes.checkout,
        routes.cancelPayment,
        routes.spendUnit,
        routes.cancelSubscription,
        routes.resumeSubscription,
      ]) {
        await expect(action(link)).rejects.toMatchObject({ code: 'method_not_allowed', httpStatus: 405 });
      }
      expect(calls).toEqual([]);
    },
  );

  it('lets POST and a direct call of your own server code (no method) through', async () => {
    const { routes } = routesWith();
    await expect(routes.checkout(formPost(routes))).resolves.toMatchObject({ type: 'redirect' });
    await expect(
      routes.checkout({ accountKey: 'alice', fields: { offerUid: 'off_unlock', nonce: 'n'.repeat(24) } }),
    ).resolves.toMatchObject({ type: 'redirect' });
  });
});

describe('form tokens in the routes', () => {
  it('expire: a form rendered 400 days ago is refused, one of a minute ago accepted', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2025-10-20T10:00:00Z'));
    const { routes } = routesWith();
    const old = formPost(routes);
    vi.setSystemTime(Date.parse('2025-10-20T10:00:00Z') + 400 * DAY);
    await expect(routes.checkout(old)).rejects.toMatchObject({ code: 'cross_site_request' });
    await expect(routes.checkout(formPost(routes))).resolves.toMatchObject({ type: 'redirect' });
  });

  it('are bound to the session the app names', async () => {
    const { routes } = routesWith();
    const token = routes.formToken('alice', 'session_a');
    const post = (session: string) => ({ ...formPost(routes, { token }), session });
    await expect(routes.checkout(post('session_b'))).rejects.toMatchObject({ code: 'cross_site_request' });
    await expect(routes.checkout(post('session_a'))).resolves.toMatchObject({ type: 'redirect' });
  });

  it('verify under every configured form secret, so instances mid-rotation accept each other’s forms', async () => {
    const old = routesWith({ formSecret: 'form_old' }).routes;
    const rotating = routesWith({ formSecret: ['form_new', 'form_old'] }).routes;
    await expect(rotating.checkout(formPost(old))).resolves.toMatchObject({ type: 'redirect' });
    const next = routesWith({ formSecret: 'form_new' }).routes;
    await expect(
      next.checkout({ ...formPost(next), fields: formPost(rotating).fields }),
    ).resolves.toMatchObject({
      type: 'redirect',
    });
  });

  it('check the app’s own forms too (verifyFormToken), by account and session', () => {
    const { routes } = routesWith();
    const token = routes.formToken('operator', 'session_a');
    expect(routes.verifyFormToken('operator', token, 'session_a')).toBe(true);
    expect(routes.verifyFormToken('operator', token, 'session_b')).toBe(false);
    expect(routes.verifyFormToken('alice', token, 'session_a')).toBe(false);
    expect(routes.verifyFormToken('', token)).toBe(false);
    expect(routes.verifyFormToken('operator', 'forged', 'session_a')).toBe(false);
  });

  it('refuse an account key that is not well-formed text instead of merging it with another', async () => {
    const { routes } = routesWith();
    expect(() => routes.formToken('x\uD800')).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    const post = { ...formPost(routes), accountKey: 'x\uDC00' };
    await expect(routes.checkout(post)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(routes.formToken('x\uFFFD')).toMatch(/\./);
  });
});

describe('the checkout URL of the service’s answer', () => {
  it.each([
    'javascript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'https://evil.example/c/pay_1',
    'http://checkout.example/c/pay_1',
    'https://checkout.example/pay_1',
  ])('%s never reaches a Location or an iframe: 502, reported', async (checkoutUrl) => {
    const { routes, onError, logger } = routesWith({
      client: fakeClient(waitingPayment(() => checkoutUrl)),
      checkoutBaseUrl: 'https://checkout.example',
    });
    for (const presentation of ['redirect', 'embedded']) {
      const error = await routes.checkout(formPost(routes, { presentation })).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'service_unavailable', httpStatus: 502 });
      expect(JSON.stringify(error)).not.toContain(checkoutUrl);
    }
    expect(onError).toHaveBeenCalledTimes(2);
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it('is taken on the configured checkout host, with the spec’s path', async () => {
    const { routes } = routesWith({ checkoutBaseUrl: 'https://checkout.example' });
    await expect(routes.checkout(formPost(routes))).resolves.toEqual({
      type: 'redirect',
      status: 303,
      location: 'https://checkout.example/c/pay_1',
    });
  });

  it('is left out of the return page’s continue link when it is not the expected one', async () => {
    const { routes } = routesWith({ client: fakeClient(waitingPayment(() => 'javascript:alert(1)')) });
    const result = await routes.returnPage({ accountKey: 'alice', fields: { paymentUid: 'pay_9' } });
    expect(result).toMatchObject({
      type: 'view',
      view: { kind: 'return', state: 'pending', continueUrl: undefined },
    });
  });
});

describe('onError on every failure of a route', () => {
  it('is called for each misconfiguration; the log line is rate-limited instead', async () => {
    const refused = new DcbApiError({
      code: 'AUZ-002',
      httpStatus: 403,
      message: 'the application lacks the capability for this route',
      method: 'POST',
      path: '/v1/payments',
    });
    const client = fakeClient(waitingPayment((uid) => `https://checkout.example/c/${uid}`));
    client.payments.create = async () => {
      throw refused;
    };
    const { routes, onError, logger } = routesWith({ client });
    for (let i = 0; i < 3; i++) await expect(routes.checkout(formPost(routes))).rejects.toBe(refused);
    expect(onError).toHaveBeenCalledTimes(3);
    expect(logger.error).toHaveBeenCalledTimes(1);
  });
});

describe('an offer the service does not know', () => {
  it('answers 404 and logs, once a minute, that the app’s offers are not this environment’s', async () => {
    const client = fakeClient(waitingPayment((uid) => `https://checkout.example/c/${uid}`));
    client.payments.create = async () => {
      throw new DcbApiError({
        code: 'CAT-102',
        httpStatus: 404,
        message: 'offer not found',
        method: 'POST',
        path: '/v1/payments',
      });
    };
    const { routes, logger } = routesWith({ client });
    for (let i = 0; i < 2; i++) {
      await expect(routes.checkout(formPost(routes))).rejects.toMatchObject({ code: 'not_found' });
    }
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'CAT-102', offerUid: expect.any(String) }),
      expect.stringMatching(/knows no offer .* offerUids of this environment/),
    );
  });
});

describe('a checkout URL on another host than checkoutBaseUrl (issue 38)', () => {
  function wrongHostRoutes(cancel: (uid: string) => Promise<unknown>) {
    const client = fakeClient(waitingPayment((uid) => `https://pay.service.example/c/${uid}`));
    client.payments.cancel = cancel as DcbClient['payments']['cancel'];
    return routesWith({ client, checkoutBaseUrl: 'https://checkout.wrong.example' });
  }

  it('logs what was received and the variable to set, cancels the payment and counts it for operators', async () => {
    const canceled: string[] = [];
    const { routes, logger } = wrongHostRoutes(async (uid) => {
      canceled.push(uid);
      return { paymentUid: uid, status: 'CANCELED' };
    });
    expect(routes.checkoutHealth()).toMatchObject({ refusedUrls: 0, lastRefused: null });
    await expect(routes.checkout(formPost(routes))).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(canceled).toEqual(['pay_1']);
    const [fields, message] = logger.error.mock.calls[0] as [Record<string, unknown>, string];
    expect(fields).toMatchObject({
      paymentUid: 'pay_1',
      receivedUrl: 'https://pay.service.example/c/pay_1',
      expectedUrl: 'https://checkout.wrong.example/c/pay_1',
      variable: 'DCB_CHECKOUT_BASE_URL',
      canceled: true,
    });
    expect(message).toContain('https://pay.service.example/c/pay_1');
    expect(message).toContain('DCB_CHECKOUT_BASE_URL=https://pay.service.example');
    expect(routes.checkoutHealth()).toMatchObject({
      refusedUrls: 1,
      lastRefused: {
        paymentUid: 'pay_1',
        receivedUrl: 'https://pay.service.example/c/pay_1',
        receivedCheckoutHost: 'https://pay.service.example',
        configuredCheckoutHost: 'https://checkout.wrong.example',
        canceled: true,
      },
    });
    // The cancelled payment is not an open checkout to continue: the next try makes a new one.
    await expect(routes.checkout(formPost(routes))).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(canceled).toEqual(['pay_1', 'pay_2']);
    expect(routes.checkoutHealth().refusedUrls).toBe(2);
  });

  it('still answers 502 when the cancel fails, saying the payment stays open', async () => {
    const { routes, logger } = wrongHostRoutes(async () => {
      throw new Error('service unreachable');
    });
    await expect(routes.checkout(formPost(routes))).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ paymentUid: 'pay_1' }),
      expect.stringContaining('could not cancel payment pay_1'),
    );
    expect(routes.checkoutHealth().lastRefused).toMatchObject({ canceled: false });
  });

  it('names no host to set when the URL itself is not the spec’s shape', async () => {
    const client = fakeClient(waitingPayment(() => 'javascript:alert(1)'));
    const { routes, logger } = routesWith({ client, checkoutBaseUrl: 'https://checkout.example' });
    await expect(routes.checkout(formPost(routes))).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(routes.checkoutHealth().lastRefused).toMatchObject({ receivedCheckoutHost: null });
    expect(logger.error.mock.calls[0]?.[1]).not.toContain('DCB_CHECKOUT_BASE_URL=');
  });

  it('cancels an open checkout whose URL the configured host now refuses, kept as CANCELED', async () => {
    const store = memoryStore();
    const open = waitingPayment((uid) => `https://checkout.old.example/c/${uid}`)('pay_old');
    await rememberPendingPayment(
      store,
      { ...open, expiresAt: new Date(Date.now() + DAY).toISOString() },
      'alice',
    );
    const canceled: string[] = [];
    const client = fakeClient(waitingPayment((uid) => `https://checkout.new.example/c/${uid}`));
    client.payments.cancel = (async (uid: string) => {
      canceled.push(uid);
      return { paymentUid: uid, status: 'CANCELED' };
    }) as DcbClient['payments']['cancel'];
    const onNewHost = routesWith({ store, client, checkoutBaseUrl: 'https://checkout.new.example' }).routes;
    await expect(onNewHost.checkout(formPost(onNewHost))).rejects.toMatchObject({
      code: 'service_unavailable',
    });
    expect(canceled).toEqual(['pay_old']);
    expect(
      (await store.listPendingPaymentsOfAccount('alice')).map((payment) => payment.ended?.status),
    ).toEqual(['CANCELED']);
    // With the open checkout gone, the next one is a new payment on the right host.
    await expect(onNewHost.checkout(formPost(onNewHost))).resolves.toMatchObject({
      location: 'https://checkout.new.example/c/pay_1',
    });
    expect(onNewHost.checkoutHealth()).toMatchObject({
      refusedUrls: 1,
      lastRefused: { paymentUid: 'pay_old', receivedCheckoutHost: 'https://checkout.old.example' },
    });
  });

  it('is a configuration error at start in production when no checkout host is given', () => {
    const production = {
      ...fakeClient(waitingPayment((uid) => `https://p.example/c/${uid}`)),
      environment: 'production',
    };
    expect(() => routesWith({ client: production as DcbClient })).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining('DCB_CHECKOUT_BASE_URL'),
      }),
    );
    expect(() =>
      routesWith({ client: production as DcbClient, checkoutBaseUrl: 'https://p.example' }),
    ).not.toThrow();
    const sandbox = { ...production, environment: 'sandbox' };
    expect(() => routesWith({ client: sandbox as DcbClient })).not.toThrow();
  });
});
