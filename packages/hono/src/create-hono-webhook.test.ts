import { signWebhook } from '@dcbkit/core/webhooks';
import { Hono, type MiddlewareHandler } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { loggedWebhook } from '../../core/src/test-support/logged-webhook.js';
import { createHonoWebhook } from './create-hono-webhook.js';

const SECRET = 'whsec_hono_webhook_test';
const { webhook, logs } = loggedWebhook(SECRET, { maxBodyBytes: 1024 });
afterEach(() => {
  logs.length = 0;
});

// Bytes a parser and a re-serialisation would not give back: spacing, key order, an escaped é.
const BODY = '{ "occurredAt": "2030-01-01T00:00:00Z",\n  "event": "probe.unknown", "note": "caf\\u00e9" }';

function deliver(app: Hono, body = BODY) {
  return app.request('/webhooks/dcb', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'service-signature': signWebhook({ payload: body, secret: SECRET }),
    },
    body,
  });
}

function appReadingFirst(read?: MiddlewareHandler): Hono {
  const app = new Hono();
  if (read) app.use(read);
  app.post('/webhooks/dcb', createHonoWebhook(webhook));
  return app;
}

describe('createHonoWebhook', () => {
  it('reads the exact signed bytes itself when nothing read the body', async () => {
    const answer = await deliver(appReadingFirst());
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: true, outcome: 'ignored' });
  });

  it.each<[string, MiddlewareHandler]>([
    [
      'c.req.json()',
      async (c, next) => {
        await c.req.json();
        await next();
      },
    ],
    [
      'c.req.text()',
      async (c, next) => {
        await c.req.text();
        await next();
      },
    ],
    [
      'c.req.arrayBuffer()',
      async (c, next) => {
        await c.req.arrayBuffer();
        await next();
      },
    ],
    [
      'c.req.blob()',
      async (c, next) => {
        await c.req.blob();
        await next();
      },
    ],
  ])('takes the bytes Hono cached when a middleware read the body with %s', async (_reader, read) => {
    const answer = await deliver(appReadingFirst(read));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: true, outcome: 'ignored' });
  });

  it('answers 500 at once and logs the fix when something read c.req.raw and kept nothing', async () => {
    const answer = await deliver(
      appReadingFirst(async (c, next) => {
        await c.req.raw.json();
        await next();
      }),
    );
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({ received: false, error: 'body_not_raw' });
    expect(logs.join('\n')).toMatch(/raw body is gone.*c\.req\.json\(\)/);
  });

  it('refuses a body over the handler’s limit with 413, read by Hono or not', async () => {
    const large = JSON.stringify({ event: 'probe.unknown', padding: 'x'.repeat(2048) });
    expect((await deliver(appReadingFirst(), large)).status).toBe(413);
    const cached = appReadingFirst(async (c, next) => {
      await c.req.text();
      await next();
    });
    expect((await deliver(cached, large)).status).toBe(413);
  });

  it('refuses a tampered body 401', async () => {
    const app = appReadingFirst();
    const answer = await app.request('/webhooks/dcb', {
      method: 'POST',
      headers: { 'service-signature': signWebhook({ payload: BODY, secret: SECRET }) },
      body: BODY.replace('probe', 'probes'),
    });
    expect(answer.status).toBe(401);
  });
});
