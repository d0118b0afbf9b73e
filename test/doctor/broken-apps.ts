import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  request,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { memoryLedger, memoryStore } from '@dcbkit/core';
import { createWebhookHandler } from '@dcbkit/core/web';
import { createExpressWebhook } from '@dcbkit/express';
import express5 from 'express5';
import type { PartnerKit } from '../support/partner-kit.js';

// Webhook receivers broken on purpose, each the way real ones break, for `dcbkit doctor` to find.

/** Drops the body and answers `status` with `body`, whatever came in. */
function answerEverything(
  status: number,
  body: string,
  headers: Record<string, string> = {},
): RequestListener {
  return (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(body));
  };
}

/** A hand-written receiver that never checks a signature and reads any body to its end. */
export const acceptsEverything: RequestListener = answerEverything(200, 'ok');

/** A route that answers with a redirect (the URL in the console is http, the app wants https). */
export const redirects: RequestListener = answerEverything(308, '', {
  location: 'https://shop.example/webhooks/dcb',
});

/** A route that accepts the connection and never answers. */
export const neverAnswers: RequestListener = (req) => {
  req.resume();
};

/**
 * The classic bug: a global express.json() parses the body, and the route hands the kit
 * JSON.stringify(req.body) as the raw body. Compact JSON survives the round trip; nothing else does.
 */
export function reserialisingApp(kit: PartnerKit): RequestListener {
  const app = express5();
  app.use(express5.json());
  app.post('/webhooks/dcb', async (req, res) => {
    const answer = await kit.webhooks({ rawBody: JSON.stringify(req.body), headers: req.headers });
    res.status(answer.status).set(answer.headers).send(answer.body);
  });
  return app;
}

/** A route whose handler throws on every delivery (its database is down): Express answers 500. */
export function failingApp(): RequestListener {
  const app = express5();
  app.post('/webhooks/dcb', () => {
    throw new Error('connect ECONNREFUSED 10.0.0.5:5432');
  });
  // Express's own error page, without the stack (as in production).
  app.use((_error: unknown, _req: express5.Request, res: express5.Response, _next: express5.NextFunction) => {
    res.status(500).type('html').send('<h1>Internal Server Error</h1>');
  });
  return app;
}

/** The app answered `delayMs` late: a slow store, a cold start, a proxy queueing. */
export function slowly(listener: RequestListener, delayMs: number): RequestListener {
  return (req, res) => {
    setTimeout(() => listener(req, res), delayMs);
  };
}

/**
 * A dcbkit receiver (createWebhookHandler behind createExpressWebhook) on a server whose clock is
 * `clockSkewMs` off: the handler verifies by that clock (createWebhookHandler's `now`;
 * createDcbKit's `now` is its pages' clock, not verification's), and the Date header says it too.
 */
export function kitReceiver(secret: string, clockSkewMs = 0): RequestListener {
  const skewedNow = () => new Date(Date.now() + clockSkewMs);
  const handler = createWebhookHandler({
    secrets: secret,
    store: memoryStore(),
    ledger: memoryLedger(),
    offers: [],
    now: skewedNow,
    logger: {},
  });
  const app = express5();
  app.use((_req, res, next) => {
    res.setHeader('date', skewedNow().toUTCString());
    next();
  });
  app.post('/webhooks/dcb', createExpressWebhook(handler));
  return app;
}

/**
 * A reverse proxy in front of `target` that forwards an allow-list of headers, and the
 * Service-Signature header is not on it.
 */
export function headerStrippingProxy(target: string): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const { 'service-signature': _dropped, ...headers } = req.headers;
    const upstream = request(`${target}${req.url ?? '/'}`, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  };
}

/** A loopback address where nothing listens any more. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
