import type { RequestListener } from 'node:http';
import { memoryLedger, memoryStore } from '@dcbkit/core';
import { runNodeWebhook } from '@dcbkit/core/node';
import { createWebhookHandler } from '@dcbkit/core/web';
import { createExpressWebhook } from '@dcbkit/express';
import { createKoaWebhook } from '@dcbkit/koa';
import Router from '@koa/router';
import type Express from 'express';
import express4 from 'express4';
import express5 from 'express5';
import type Koa from 'koa';
import koa2 from 'koa2';
import koa3 from 'koa3';
import { OFFERS, SECRET } from './events.js';
import { type Answer, bareWork, floorWork, minimalWork } from './route-work.js';

export const FRAMEWORKS = ['node:http', 'express4', 'express5', 'koa2', 'koa3'] as const;
export type Framework = (typeof FRAMEWORKS)[number];
export type Variant = 'bare' | 'floor' | 'minimal' | 'dcbkit';
export const VARIANTS: readonly Variant[] = ['bare', 'floor', 'minimal', 'dcbkit'];

/** A partner's setup: the defaults a partner gets (memoryLedger's max of 100,000 included). */
function dcbkitHandler() {
  return createWebhookHandler({
    secrets: SECRET,
    store: memoryStore(),
    ledger: memoryLedger(),
    offers: OFFERS,
  });
}

const work = { bare: bareWork, floor: floorWork, minimal: minimalWork } as const;

function nodeApp(variant: Variant): RequestListener {
  const write = (res: Parameters<RequestListener>[1], answer: Answer) => {
    const body = answer.body ?? '';
    res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  if (variant === 'dcbkit') {
    const handler = dcbkitHandler();
    return (req, res) => {
      if (req.method !== 'POST' || req.url !== '/webhooks') return write(res, notFound);
      runNodeWebhook(handler, { req, mountingHint: '' }).then((answer) => write(res, answer));
    };
  }
  const run = work[variant];
  return (req, res) => {
    if (req.method !== 'POST' || req.url !== '/webhooks') return write(res, notFound);
    run(req).then((answer) => write(res, answer));
  };
}
const notFound: Answer = { status: 404, headers: {}, body: '' };

function expressApp(express: typeof Express, variant: Variant): RequestListener {
  const app = express();
  if (variant === 'dcbkit') {
    app.post('/webhooks', createExpressWebhook(dcbkitHandler()));
  } else {
    const run = work[variant];
    // Written as @dcbkit/express writes its answers: status, set, send.
    app.post('/webhooks', (req, res, next) => {
      run(req)
        .then((answer) => res.status(answer.status).set(answer.headers).send(answer.body))
        .catch(next);
    });
  }
  return app;
}

function koaApp(KoaClass: typeof Koa, variant: Variant): RequestListener {
  const app = new KoaClass();
  const router = new Router();
  if (variant === 'dcbkit') {
    router.post('/webhooks', createKoaWebhook(dcbkitHandler()));
  } else {
    const run = work[variant];
    // Written as @dcbkit/koa writes its answers: status, set, body.
    router.post('/webhooks', async (ctx) => {
      const answer = await run(ctx.req);
      ctx.status = answer.status;
      ctx.set(answer.headers);
      ctx.body = answer.body ?? '';
    });
  }
  app.use(router.routes());
  return app.callback();
}

export function buildApp(framework: Framework, variant: Variant): RequestListener {
  switch (framework) {
    case 'node:http':
      return nodeApp(variant);
    case 'express4':
      return expressApp(express4 as typeof Express, variant);
    case 'express5':
      return expressApp(express5 as typeof Express, variant);
    case 'koa2':
      return koaApp(koa2 as typeof Koa, variant);
    case 'koa3':
      return koaApp(koa3 as typeof Koa, variant);
  }
}
