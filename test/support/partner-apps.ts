import type { IncomingMessage, RequestListener } from 'node:http';
import { createExpressRoutes, createExpressWebhook } from '@dcbkit/express';
import { createKoaRoutes, createKoaWebhook } from '@dcbkit/koa';
import { bodyParser as koaBodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type Express from 'express';
import express4 from 'express4';
import express5 from 'express5';
import type Koa from 'koa';
import koa2 from 'koa2';
import koa3 from 'koa3';
import { fastifyVariant } from './apps/fastify-app.js';
import { fetchVariant } from './apps/fetch-app.js';
import { honoVariant } from './apps/hono-app.js';
import { nextVariant } from './apps/next-app.js';
import type { PartnerKit } from './partner-kit.js';

/**
 * How the app parses bodies before the dcbkit routes: not at all, with a global JSON parser that
 * keeps the raw bytes, or with one that throws them away (the classic webhook bug).
 */
export type BodyParsing = 'none' | 'kept' | 'discarded';

/** The app's own error handler (Express `(err, req, res, next)`, a Koa try/catch): it answers 500 `{ appError: code }`. */
export type AppErrorSink = (error: unknown) => void;

/**
 * How the app mounts the state-changing routes: on POST, as the docs say, or on every method
 * (`app.all`, `router.all`), which must not let a GET change anything.
 */
export type Mounting = 'post' | 'any_method';

export interface AppVariant {
  name: string;
  build(
    kit: PartnerKit,
    bodyParsing: BodyParsing,
    onAppError?: AppErrorSink,
    mounting?: Mounting,
  ): RequestListener | Promise<RequestListener>;
}

export function appErrorBody(error: unknown): { appError: unknown } {
  return { appError: (error as { code?: unknown }).code ?? 'unknown' };
}

const accountHeader = 'x-account';
/** The test's stand-in for a session id (express-session's `req.sessionID`). */
const sessionHeader = 'x-session';

function expressVariant(name: string, express: typeof Express): AppVariant {
  return {
    name,
    build(kit, bodyParsing, onAppError, mounting = 'post') {
      const app = express();
      if (bodyParsing === 'kept') {
        app.use(
          express.json({
            // Reflect.set: @koa/bodyparser's types declare IncomingMessage.rawBody a string globally.
            verify: (req, _res, buf) => Reflect.set(req, 'rawBody', buf),
          }),
        );
        app.use(express.urlencoded({ extended: false }));
      }
      if (bodyParsing === 'discarded') app.use(express.json());
      const dcb = createExpressRoutes({
        routes: kit.routes,
        signedInAccount: (req) => req.get(accountHeader),
        sessionId: (req) => req.get(sessionHeader),
      });
      const changing = mounting === 'post' ? app.post.bind(app) : app.all.bind(app);
      app.post('/webhooks/dcb', createExpressWebhook(kit.webhooks));
      changing('/checkout', dcb.checkout());
      app.get('/return', dcb.returnPage());
      changing('/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription());
      changing('/subscriptions/:subscriptionUid/resume', dcb.resumeSubscription());
      changing('/payments/:paymentUid/cancel', dcb.cancelPayment());
      changing('/passes/:productUid/use', dcb.spendUnit());
      app.get('/premium', dcb.requireAccess('prod_premium'), (_req, res) => {
        res.send('premium content');
      });
      app.get('/day-pass', dcb.requireAccess('prod_day_pass'), (_req, res) => {
        res.send('a day of content');
      });
      app.get('/unlock', dcb.requireAccess('prod_full_unlock', { redirectTo: '/offers' }), (_req, res) => {
        res.send('unlocked');
      });
      app.use((error: unknown, _req: Express.Request, res: Express.Response, _next: Express.NextFunction) => {
        onAppError?.(error);
        res.status(500).json(appErrorBody(error));
      });
      return app;
    },
  };
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function koaVariant(name: string, KoaApp: typeof Koa): AppVariant {
  return {
    name,
    build(kit, bodyParsing, onAppError, mounting = 'post') {
      const app = new KoaApp();
      app.use(async (ctx, next) => {
        try {
          await next();
        } catch (error) {
          onAppError?.(error);
          ctx.status = 500;
          ctx.body = appErrorBody(error);
        }
      });
      // @koa/bodyparser keeps ctx.request.rawBody.
      if (bodyParsing === 'kept') app.use(koaBodyParser());
      if (bodyParsing === 'discarded') {
        app.use(async (ctx, next) => {
          if (ctx.is('application/json')) {
            (ctx.request as { body?: unknown }).body = JSON.parse(await readText(ctx.req));
          }
          await next();
        });
      }
      const dcb = createKoaRoutes({
        routes: kit.routes,
        signedInAccount: (ctx) => ctx.get(accountHeader) || undefined,
        sessionId: (ctx) => ctx.get(sessionHeader) || undefined,
      });
      const router = new Router();
      router.post('/webhooks/dcb', createKoaWebhook(kit.webhooks));
      if (mounting === 'any_method') {
        // A path-only middleware, no router: every method reaches the route.
        app.use(async (ctx, next) => (ctx.path === '/checkout' ? dcb.checkout()(ctx, next) : next()));
        router.all('/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription());
        router.all('/subscriptions/:subscriptionUid/resume', dcb.resumeSubscription());
        router.all('/payments/:paymentUid/cancel', dcb.cancelPayment());
        router.all('/passes/:productUid/use', dcb.spendUnit());
      } else {
        router.post('/checkout', dcb.checkout());
        router.post('/subscriptions/:subscriptionUid/cancel', dcb.cancelSubscription());
        router.post('/subscriptions/:subscriptionUid/resume', dcb.resumeSubscription());
        router.post('/payments/:paymentUid/cancel', dcb.cancelPayment());
        router.post('/passes/:productUid/use', dcb.spendUnit());
      }
      router.get('/return', dcb.returnPage());
      router.get('/premium', dcb.requireAccess('prod_premium'), (ctx) => {
        ctx.body = 'premium content';
      });
      router.get('/day-pass', dcb.requireAccess('prod_day_pass'), (ctx) => {
        ctx.body = 'a day of content';
      });
      router.get('/unlock', dcb.requireAccess('prod_full_unlock', { redirectTo: '/offers' }), (ctx) => {
        ctx.body = 'unlocked';
      });
      app.use(router.routes());
      return app.callback();
    },
  };
}

/** Every supported major of every framework. */
export const APP_VARIANTS: AppVariant[] = [
  expressVariant('Express 4', express4 as typeof Express),
  expressVariant('Express 5', express5 as typeof Express),
  koaVariant('Koa 2', koa2 as typeof Koa),
  koaVariant('Koa 3', koa3 as typeof Koa),
  fastifyVariant('Fastify 5'),
  honoVariant('Hono 4'),
  nextVariant('Next.js route handlers'),
  fetchVariant('bare fetch'),
];

export { accountHeader, sessionHeader };
