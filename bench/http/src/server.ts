/**
 * One benchmark server, in its own process so the load generator does not share its event loop.
 * argv: express|koa  bare|calibration|dcbkit. Prints the port once listening; on a "report"
 * message it answers the server's CPU time per request served.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, memoryLedger, memoryStore } from '@dcbkit/core';
import { createExpressWebhook } from '@dcbkit/express';
import { createKoaWebhook } from '@dcbkit/koa';
import Router from '@koa/router';
import express from 'express';
import Koa from 'koa';
import { OFFERS, SECRET } from './events.js';

const [framework, variant] = process.argv.slice(2);

/** The calibration route's extra work: a fixed 15 µs of CPU, about what verifying a webhook costs. */
const CALIBRATION_NS = 15_000n;

async function bareWork(req: IncomingMessage): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  Buffer.concat(chunks);
  if (variant === 'calibration') {
    const until = process.hrtime.bigint() + CALIBRATION_NS;
    while (process.hrtime.bigint() < until) {
      // busy: the point is to cost CPU
    }
  }
}

const handler = createWebhookHandler({
  secrets: SECRET,
  store: memoryStore(),
  ledger: memoryLedger({ max: 1_000_000 }),
  offers: OFFERS,
  logger: { warn: () => {}, error: (line) => console.error(line) },
});

function expressApp() {
  const app = express();
  if (variant === 'dcbkit') {
    app.post('/webhooks', createExpressWebhook(handler));
  } else {
    app.post('/webhooks', async (req, res) => {
      await bareWork(req);
      res.status(200).json({ received: true });
    });
  }
  return app;
}

function koaApp() {
  const app = new Koa();
  const router = new Router();
  if (variant === 'dcbkit') {
    router.post('/webhooks', createKoaWebhook(handler));
  } else {
    router.post('/webhooks', async (ctx) => {
      await bareWork(ctx.req);
      ctx.body = { received: true };
    });
  }
  app.use(router.routes());
  return app.callback();
}

const listener = framework === 'express' ? expressApp() : koaApp();
let served = 0;
const cpuAtStart = process.cpuUsage();
const server = createServer((req, res) => {
  served++;
  listener(req, res);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.on('message', (message) => {
  if (message !== 'report') return;
  const cpu = process.cpuUsage(cpuAtStart);
  process.send?.({ cpuMicrosPerRequest: (cpu.user + cpu.system) / Math.max(served, 1), served });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
