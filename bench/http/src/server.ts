/**
 * One benchmark server, in its own process so the load generator does not share its event loop.
 * argv: express|koa  bare|dcbkit. Prints the port once listening.
 */
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, memoryLedger, memoryStore } from '@dcbkit/core';
import { createExpressWebhook } from '@dcbkit/express';
import { createKoaWebhook } from '@dcbkit/koa';
import Router from '@koa/router';
import express from 'express';
import Koa from 'koa';
import { OFFERS, SECRET } from './events.js';

const [framework, variant] = process.argv.slice(2);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const handler = createWebhookHandler({
  secrets: SECRET,
  store: memoryStore(),
  ledger: memoryLedger({ max: 2_000_000 }),
  offers: OFFERS,
  logger: { warn: () => {}, error: (line) => console.error(line) },
});

function expressApp() {
  const app = express();
  if (variant === 'bare') {
    app.post('/webhooks', async (req, res) => {
      await readBody(req);
      res.status(200).json({ received: true });
    });
  } else {
    app.post('/webhooks', createExpressWebhook(handler));
  }
  return app;
}

function koaApp() {
  const app = new Koa();
  const router = new Router();
  if (variant === 'bare') {
    router.post('/webhooks', async (ctx) => {
      await readBody(ctx.req);
      ctx.body = { received: true };
    });
  } else {
    router.post('/webhooks', createKoaWebhook(handler));
  }
  app.use(router.routes());
  return app.callback();
}

const listener = framework === 'express' ? expressApp() : koaApp();
const { createServer } = await import('node:http');
const server = createServer(listener);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
