import { DcbError } from '@dcbkit/core';
import { signWebhook } from '@dcbkit/core/webhooks';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loggedWebhook } from '../../core/src/test-support/logged-webhook.js';
import { createFastifyWebhook } from './create-fastify-webhook.js';
import { fastifyDcbkit } from './fastify-dcbkit.js';

const SECRET = 'whsec_fastify_plugin_test';
const { webhook, logs } = loggedWebhook(SECRET);

// Bytes a parser and a re-serialisation would not give back: spacing, key order, an escaped é.
const BODY = '{ "occurredAt": "2030-01-01T00:00:00Z",\n  "event": "probe.unknown", "note": "caf\\u00e9" }';
const signed = (body = BODY) => ({
  'content-type': 'application/json',
  'service-signature': signWebhook({ payload: body, secret: SECRET }),
});

const apps: FastifyInstance[] = [];
afterEach(async () => {
  logs.length = 0;
  for (const app of apps.splice(0)) await app.close();
});

function appWithJsonRoute(): FastifyInstance {
  const app = Fastify();
  apps.push(app);
  // The app's own JSON route, in the root scope: its parsing must stay Fastify's.
  app.post('/api/echo', async (request) => ({ parsed: request.body }));
  return app;
}

describe('fastifyDcbkit', () => {
  it('gives the webhook the exact signed bytes and leaves the app’s own JSON parsing alone', async () => {
    const app = appWithJsonRoute();
    await app.register(fastifyDcbkit, { webhook });
    const delivered = await app.inject({
      method: 'POST',
      url: '/webhooks/dcb',
      headers: signed(),
      body: BODY,
    });
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json()).toEqual({ received: true, outcome: 'ignored' });

    const echo = await app.inject({ method: 'POST', url: '/api/echo', payload: { a: 1 } });
    expect(echo.json()).toEqual({ parsed: { a: 1 } });
    // Outside the plugin's scope a form is still refused as Fastify refuses it, with no parser for it.
    const form = await app.inject({
      method: 'POST',
      url: '/api/echo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(form.statusCode).toBe(415);
  });

  it('refuses a tampered body, and one above the handler’s limit with 413', async () => {
    const app = appWithJsonRoute();
    await app.register(fastifyDcbkit, { webhook });
    const tampered = await app.inject({
      method: 'POST',
      url: '/webhooks/dcb',
      headers: signed(),
      body: BODY.replace('caf', 'CAF'),
    });
    expect(tampered.statusCode).toBe(401);
    const large = JSON.stringify({ event: 'probe.unknown', padding: 'x'.repeat(webhook.maxBodyBytes) });
    const tooLarge = await app.inject({
      method: 'POST',
      url: '/webhooks/dcb',
      headers: signed(large),
      body: large,
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ received: false, error: 'body_too_large' });
  });

  it('mounts the app’s routes in a scope where bodies of every type are left unread', async () => {
    const app = appWithJsonRoute();
    await app.register(fastifyDcbkit, {
      mount(scope) {
        scope.post('/billing/probe', async (request) => {
          const chunks: Buffer[] = [];
          for await (const chunk of request.raw) chunks.push(chunk as Buffer);
          return { body: request.body ?? null, raw: Buffer.concat(chunks).toString('utf8') };
        });
      },
    });
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', 'offerUid=offer_a&token=t'],
      ['application/json', '{"offerUid":"offer_a"}'],
      ['text/plain', 'hello'],
    ]) {
      const answer = await app.inject({
        method: 'POST',
        url: '/billing/probe',
        headers: { 'content-type': type },
        body,
      });
      expect(answer.json(), type).toEqual({ body: null, raw: body });
    }
    expect(
      (await app.inject({ method: 'POST', url: '/webhooks/dcb', headers: signed(), body: BODY })).statusCode,
    ).toBe(404);
  });

  it('takes the webhook path and Fastify’s prefix', async () => {
    const app = appWithJsonRoute();
    await app.register(fastifyDcbkit, { webhook, webhookPath: '/dcb', prefix: '/hooks' });
    const delivered = await app.inject({ method: 'POST', url: '/hooks/dcb', headers: signed(), body: BODY });
    expect(delivered.statusCode).toBe(200);
  });

  it.each([
    [{}, /webhook or mount is needed/],
    [{ webhook: 'kit.webhook' }, /webhook must be the kit’s webhook handler/],
    [{ webhook, webhookPath: 'webhooks/dcb' }, /webhookPath must be a path starting with \//],
    [{ mount: '/billing' }, /mount must be a function/],
  ])('refuses the options %o with a DcbError invalid_option', async (options, message) => {
    const app = appWithJsonRoute();
    app.register(fastifyDcbkit, options as never);
    const error = await app.ready().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(DcbError);
    expect(error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(message) });
  });
});

describe('createFastifyWebhook mounted outside the plugin', () => {
  it('uses the bytes a parser kept as request.rawBody', async () => {
    const app = Fastify();
    apps.push(app);
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      Reflect.set(request, 'rawBody', body);
      done(null, JSON.parse(body.toString('utf8')));
    });
    app.post('/webhooks/dcb', createFastifyWebhook(webhook));
    const delivered = await app.inject({
      method: 'POST',
      url: '/webhooks/dcb',
      headers: signed(),
      body: BODY,
    });
    expect(delivered.json()).toEqual({ received: true, outcome: 'ignored' });
  });

  it('answers 500 at once with the fix in the log when Fastify’s JSON parser consumed the body', async () => {
    const app = Fastify();
    apps.push(app);
    app.post('/webhooks/dcb', createFastifyWebhook(webhook));
    const started = Date.now();
    const answer = await app.inject({ method: 'POST', url: '/webhooks/dcb', headers: signed(), body: BODY });
    expect(Date.now() - started).toBeLessThan(webhook.bodyTimeoutMs);
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({ received: false, error: 'body_not_raw' });
    expect(logs.join('\n')).toMatch(/raw body is gone.*fastifyDcbkit.*request\.rawBody/);
  });
});
